from reedboard.cli.main import main

raise SystemExit(main())
