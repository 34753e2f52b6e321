"""``python -m skirmish``: the same as the ``skirmish`` command."""

from skirmish.cli import main

main()
