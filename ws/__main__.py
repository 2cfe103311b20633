from ws.cli import main

main()
