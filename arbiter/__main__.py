from arbiter.cli import main

main(prog_name="arbiter")
