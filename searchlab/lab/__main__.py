import sys

from searchlab.lab.cli import main

sys.exit(main())
