"""The scripts are run as files (``python scripts/club.py``), not imported as a package: their
folder goes on the path, as it is when they run."""

import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))
