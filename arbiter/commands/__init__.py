"""One module per group of ``arbiter`` commands; registered in :data:`arbiter.cli.COMMANDS`."""
