#!/usr/bin/env bash
# Print the Debian packages from debian_packages.txt that are not installed.
here=$(dirname "$0")
for pkg in $(grep -v '^#' "$here/debian_packages.txt"); do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || printf '%s ' "$pkg"
done
