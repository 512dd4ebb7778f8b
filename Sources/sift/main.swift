import SiftCLI

exitProcess(SiftCLI.main())
