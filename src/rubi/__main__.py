"""``python -m rubi``: the same as the ``rubi`` command (:func:`rubi.entry.main`)."""

from rubi.entry import main

main()
