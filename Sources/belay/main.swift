import BelayCommandLine

BelayCLI.main()
