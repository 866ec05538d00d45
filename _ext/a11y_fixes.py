"""Accessible names in the theme's page chrome (sphinx-book-theme / pydata), in Chinese, matching what is shown.

axe-core (tests/site/test_accessibility.py) reports "label-content-name-mismatch" (WCAG 2.5.3, label in name) for the
search button (its label "搜索" leaves out the shown "Ctrl+K"), for the colour-mode button (an English label,
while its icons carry Chinese titles) and for myst-nb's toggle of a folded output (an English label over
显示输出). The theme and myst-nb write these in their templates, so the finished pages are rewritten once the
build is done (site_files).
`static/a11y.css` darkens the light theme's link colour, which is too pale on the tinted admonitions, keeps
tables and inline code readable at phone width (360 px), and keeps the “你来写” reports in the page's colours in
dark mode.
"""
from __future__ import annotations

import re

import site_files

REWRITES = [
    # Search button: no aria-label, so its name is what it shows ("搜索 Ctrl+K"); announce the shortcut too.
    (re.compile(r'(<button class="[^"]*search-button__button[^"]*" title="搜索") aria-label="搜索"'),
     r'\1 aria-keyshortcuts="Control+K"'),
    # Colour-mode button: a Chinese name; its icons are decoration (the name says what the button does).
    (re.compile(r'aria-label="Color mode" data-bs-title="Color mode"'),
     'aria-label="颜色模式：亮色、暗色或跟随系统" data-bs-title="颜色模式"'),
    (re.compile(r'title="Color mode"'), 'title="颜色模式"'),
    (re.compile(r'(<i class="theme-switch [^"]*" data-mode="\w+"\s+title="[^"]*")>'), r'\1 aria-hidden="true">'),
    (re.compile(r'title="System Settings"'), 'title="跟随系统"'),
    # myst-nb's folded cell outputs (tag hide-output): the toggle is named by what it shows (显示输出 / 收起输出).
    (re.compile(r'<summary aria-label="Toggle hidden content">'), "<summary>"),
    # Landmarks named in the page's language.
    (re.compile(r'<nav class="bd-links bd-docs-nav" aria-label="Main">'),
     '<nav class="bd-links bd-docs-nav" aria-label="全书目录">'),
    (re.compile(r'<nav aria-label="Page">'), '<nav aria-label="本页目录">'),
]


def rewrite(html: str, *_) -> str:
    for pattern, replacement in REWRITES:
        html = pattern.sub(replacement, html)
    return html


def setup(app):
    site_files.serve_static(app)
    app.add_css_file("a11y.css")
    site_files.rewrite_when_built(app, rewrite)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
