from wf.cli import main

main()
