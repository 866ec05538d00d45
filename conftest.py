"""nbval runs the notebooks (intro.ipynb, book/*.ipynb) in the learner's kit, once per run: tests/nbval_kit.py.

At the root, so that these hooks reach the notebooks, also when one is checked alone (`pytest book/NN_name.ipynb`).
The other tests' fixtures are in tests/conftest.py.
"""
import pytest

import kit_venv
import nbval_kit


def pytest_collection_modifyitems(items):
    nbval_kit.add_kernel_checks(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    """Before nbval starts a notebook's kernel: the learner's kit, made once per run, and its kernel on JUPYTER_PATH,
    only while nbval starts it (the Jupyter servers of the other tests do not list it)."""
    if not nbval_kit.is_notebook_item(item):
        return (yield)
    if nbval_kit.KIT not in item.config.stash:  # (a hook cannot ask for the tmp_path_factory fixture; this is it)
        item.config.stash[nbval_kit.KIT] = kit_venv.built_env(item.config._tmp_path_factory)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("JUPYTER_PATH", str(item.config.stash[nbval_kit.KIT].jupyter))
        return (yield)
