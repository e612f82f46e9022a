"""``python -m floatwind`` = the ``floatwind`` command."""

import sys

from floatwind.cli import main

sys.exit(main())
