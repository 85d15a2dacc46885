import sys

from searchlab.lab.lab_cli import main

sys.exit(main())
