"""The benchmark report of looplab: comparisons/report.py (``make report``).

One module per job: ``cli`` (the command, and what it runs and writes),
``policy`` and ``targets.toml`` (the per-stage policy and the targets, as
data), ``discover`` (the programs there are), ``plan`` and ``echo_plan`` (the
runs), ``run`` (running them), ``gbench`` (reading Google Benchmark JSON),
``record`` (their figures into ``model.Results``), ``targets`` (the goals, met
or not), ``tables`` (the rows of every table), ``formatting``, ``prose``,
``machine`` and ``header`` (the words around them), ``charts``, ``markdown``,
``html`` and ``summary`` (the files written).
"""
