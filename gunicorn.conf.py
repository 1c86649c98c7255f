"""gunicorn's settings for agentv-web; gunicorn reads this file from the folder it starts in."""

from __future__ import annotations

import gc
from typing import Any

# Django is loaded once, in the master, and every worker starts with it loaded.
preload_app = True


def pre_fork(server: Any, worker: Any) -> None:
    """Before each worker is forked: no database connection may be shared with it, and what
    is loaded so far is moved out of the garbage collector's reach, so a worker's full
    collections scan only what its requests made (pauses of tens of milliseconds otherwise)."""
    from django.db import connections

    connections.close_all()
    gc.freeze()
