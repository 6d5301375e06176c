"""``python -m hand_rummy`` runs the command line."""

import sys

from hand_rummy.cli import main

sys.exit(main())
