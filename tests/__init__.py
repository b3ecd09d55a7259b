"""The test suite. Importing it first installs the hash ledger (tests/replays/ledger.py), before any
module binds ``replays.replayer.replay`` by name."""

from tests.replays import ledger

ledger.install()
