"""looplab's tools as Python modules: stage, assignment and book.

Run them through their launchers (tools/stage, tools/assignment, tools/book),
which put tools/ and comparisons/ on PYTHONPATH; every module imports the
others the same way, `from looplab_tools import stage`.
"""
