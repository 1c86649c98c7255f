"""Django settings, read from the environment (docs/configuration.md and docs/deployment.md)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from cryptography.fernet import Fernet
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("AGENTV_DATA_DIR", BASE_DIR / "data"))


def env_bool(name: str, default: bool) -> bool:
    """A boolean environment variable; anything but the usual spellings is an error."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected true/false (or 1/0, yes/no, on/off)")


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated environment variable."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
    """An integer environment variable from `minimum` to `maximum`; anything else is an error."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a whole number") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r}: expected at least {minimum}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={value!r}: expected at most {maximum}")
    return number


DEBUG = env_bool("DJANGO_DEBUG", True)
# Variables and POST fields marked sensitive are hidden from error pages with DEBUG on too.
DEFAULT_EXCEPTION_REPORTER_FILTER = "agentv_web.error_reports.AlwaysSafeExceptionReporterFilter"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    # Only for local development: a fixed key lets sessions survive restarts of `make run`.
    SECRET_KEY = "agentv-web-local-development-key-not-for-production"  # noqa: S105
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so that `runserver` serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "django_htmx",
    # For its docs page's template and static files (Swagger UI), served by WhiteNoise.
    "ninja",
    "template_partials.apps.SimpleAppConfig",
    # Before django_tasks_db: its `db_worker` command is the app's steadier one.
    "evals_app",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Right after SecurityMiddleware (WhiteNoise docs): static files skip everything below.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before any view or the CSRF check reads a parameter the database could not store.
    "agentv_web.nul_characters.RefuseNulCharactersMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes requires: it turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "agentv_web.urls"
WSGI_APPLICATION = "agentv_web.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # "page.html#partial" names a {% partialdef %} of a page (django-template-partials).
            # Naming the loaders replaces Django's default, so the cached loader is named too:
            # without it every render compiles its templates again (runserver still reloads
            # changed templates: its autoreloader resets the cache).
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    }
]

# Database: SQLite by default (one user, one machine), PostgreSQL for a team.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if not DATABASE_URL:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASE_URL = f"sqlite:///{DATA_DIR / 'agentv.sqlite3'}"
DATABASE_CONN_MAX_AGE = env_int("DATABASE_CONN_MAX_AGE", 0)
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=DATABASE_CONN_MAX_AGE,
        conn_health_checks=DATABASE_CONN_MAX_AGE > 0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # https://docs.djangoproject.com/en/5.2/ref/databases/#sqlite-transaction-behavior
    # WAL lets readers go on while one connection writes; IMMEDIATE takes the write lock when a
    # transaction starts, so a second writer waits (up to `timeout` seconds) instead of failing
    # with "database is locked" when it tries to upgrade a read lock halfway through.
    # A page cache of up to 64 MB, not SQLite's 2 MB: a transaction that writes hundreds of
    # megabytes (an import, with its search index) otherwise reads its own pages back from
    # the WAL again and again (70 GB read, unfinished after minutes, for 15,000 cases; 0.5 GB
    # and three minutes with it, on a loaded machine).
    # synchronous=NORMAL, SQLite's advice for WAL: the log is flushed to disk at checkpoints,
    # not at every commit. A save behind an import's batch waited for that batch's flush too
    # (up to 242 ms, against 142 ms with it, on the benchmark's 50,000-case .zip import). A
    # power cut may lose the last commits; the file is never corrupted.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            # Seconds a write waits for the writer (AGENTV_SQLITE_TIMEOUT_SECONDS, default 20).
            "timeout": env_int("AGENTV_SQLITE_TIMEOUT_SECONDS", 20, minimum=1),
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536"
            ),
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Long work (imports, exports, syncs, publishes, upgrades) runs in `manage.py db_worker`: the
# queue is a table of the same database, so any number of workers share it (docs/jobs.md).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# Where the worker keeps an uploaded .zip until it is imported, and the exports it made for
# download. Several machines share it (e.g. a network folder), as they share the database.
AGENTV_JOB_FILES_DIR = Path(os.environ.get("AGENTV_JOB_FILES_DIR", DATA_DIR / "jobs"))
# The niceness a worker takes when it starts a job (0 to 19; 0 leaves it as started): an
# export or import at full speed on every core would otherwise make every page wait for the
# processor; with 10, pages come first and the jobs take whatever the pages leave.
AGENTV_WORKER_NICENESS = env_int("AGENTV_WORKER_NICENESS", 10, maximum=19)
# How long a deleted case stays in its workspace's Deleted list, restorable (docs/user-guide.md,
# "Deleted cases"); older ones are purged by the next deletion or restore in the workspace.
AGENTV_TRASH_DAYS = env_int("AGENTV_TRASH_DAYS", 30, minimum=1)

# Running tests with AgentV itself (docs/runs.md). The pinned CLI is node_modules/.bin/agentv
# (`make setup`); AGENTV_COMMAND runs another one (e.g. "bun /src/agentv/apps/cli/src/cli.ts"),
# split like a shell would. Runs execute what eval files name, so they are off until the
# operator turns them on; graders and targets that run commands need a second switch.
AGENTV_COMMAND = os.environ.get("AGENTV_COMMAND", "").strip() or str(
    BASE_DIR / "node_modules" / ".bin" / "agentv"
)
AGENTV_RUNS_ENABLED = env_bool("AGENTV_RUNS_ENABLED", False)
AGENTV_RUNS_ALLOW_COMMANDS = env_bool("AGENTV_RUNS_ALLOW_COMMANDS", False)
# The operator's AgentV targets file: the only providers a run may use, besides the mock.
AGENTV_TARGETS_FILE = os.environ.get("AGENTV_TARGETS_FILE", "").strip()
AGENTV_RUN_TIME_LIMIT_SECONDS = env_int("AGENTV_RUN_TIME_LIMIT_SECONDS", 600, minimum=1)
AGENTV_RUN_OUTPUT_LIMIT_BYTES = env_int("AGENTV_RUN_OUTPUT_LIMIT_BYTES", 20 * 2**20, minimum=1)
AGENTV_RUNS_PER_WORKSPACE = env_int("AGENTV_RUNS_PER_WORKSPACE", 2, minimum=1)

AUTHENTICATION_BACKENDS = [
    # First, as django-axes requires: it refuses a locked-out login before any password check.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "workspace_list"
LOGOUT_REDIRECT_URL = "login"

# Login throttling (django-axes): after AGENTV_LOGIN_FAILURE_LIMIT wrong passwords for one
# username from one address, that pair is refused for AGENTV_LOGIN_LOCKOUT_MINUTES after the
# last attempt. Behind a reverse proxy every request comes from the proxy's address, so the
# lock then holds per username. `axes_reset` lifts every lock at once.
AXES_FAILURE_LIMIT = env_int("AGENTV_LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AGENTV_LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "agentv_web.login_lockout.locked_out"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # In production WhiteNoise serves `collectstatic`'s output: compressed, with a content hash
    # in every name so browsers may cache them forever. Development (and the tests) use the
    # files as they are, with no `collectstatic` needed.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Look files up at each request while developing (no restart after editing a stylesheet).
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

# The largest workspace file (guideline, attachment, judge prompt) a person may upload or type in.
AGENTV_MAX_UPLOAD_BYTES = env_int("AGENTV_MAX_UPLOAD_BYTES", 2**20, minimum=1)
# The largest .zip of a workspace folder that can be imported from the browser (what it may
# unpack to is limited in evals_app/services/zip_extraction.py).
AGENTV_MAX_IMPORT_BYTES = env_int("AGENTV_MAX_IMPORT_BYTES", 50 * 2**20, minimum=1)
# Reading a linked repository's commit (sync, Check for changes, publish; docs/sync.md,
# "Limits"): a YAML file or config larger than AGENTV_REPOSITORY_FILE_MAX_BYTES is skipped and
# reported; a sync whose files add up to more than AGENTV_REPOSITORY_READ_MAX_BYTES is refused
# before any is read.
AGENTV_REPOSITORY_FILE_MAX_BYTES = env_int(
    "AGENTV_REPOSITORY_FILE_MAX_BYTES", 16 * 2**20, minimum=1
)
AGENTV_REPOSITORY_READ_MAX_BYTES = env_int(
    "AGENTV_REPOSITORY_READ_MAX_BYTES", 64 * 2**20, minimum=1
)
# Repositories linked from the browser by URL (docs/sync.md, "Remotes"): the server's own bare
# clones live in AGENTV_REPOSITORIES_DIR; credentials are stored encrypted with the Fernet key
# AGENTV_CREDENTIALS_KEY (without it, linking with credentials is refused); a local path or a
# `file://` URL is linked only under AGENTV_LOCAL_REPOSITORIES_ROOT (unset: `import_evals` links
# any work tree, and the browser links no local repository).
AGENTV_REPOSITORIES_DIR = Path(
    os.environ.get("AGENTV_REPOSITORIES_DIR", "").strip() or DATA_DIR / "repositories"
)
AGENTV_CREDENTIALS_KEY = os.environ.get("AGENTV_CREDENTIALS_KEY", "").strip()
if AGENTV_CREDENTIALS_KEY:
    try:
        Fernet(AGENTV_CREDENTIALS_KEY)
    except ValueError:
        raise ImproperlyConfigured(
            "AGENTV_CREDENTIALS_KEY: expected a Fernet key (32 url-safe base64-encoded bytes, "
            "as `Fernet.generate_key()` makes); its value is not shown"
        ) from None
AGENTV_LOCAL_REPOSITORIES_ROOT = os.environ.get("AGENTV_LOCAL_REPOSITORIES_ROOT", "").strip()
# Which transports git may use for a linked URL (git's `protocol.allow`); `git` (unencrypted,
# unauthenticated) only when an operator adds it, e.g. for a `git daemon` on the same machine.
AGENTV_REPOSITORY_PROTOCOLS = env_list("AGENTV_REPOSITORY_PROTOCOLS", ["https", "ssh", "file"])
if not set(AGENTV_REPOSITORY_PROTOCOLS) <= {"https", "ssh", "file", "git"}:
    raise ImproperlyConfigured(
        f"AGENTV_REPOSITORY_PROTOCOLS={','.join(AGENTV_REPOSITORY_PROTOCOLS)!r}: expected some "
        "of https, ssh, file, git"
    )
# The largest request body other than uploaded files, e.g. a file typed into a form: its text,
# form-encoded (up to 3 bytes per byte: `%E2`), plus the other fields. Bigger is refused (400).
AGENTV_MAX_REQUEST_BYTES = env_int(
    "AGENTV_MAX_REQUEST_BYTES", 3 * AGENTV_MAX_UPLOAD_BYTES + 2**20, minimum=1
)
DATA_UPLOAD_MAX_MEMORY_SIZE = AGENTV_MAX_REQUEST_BYTES
# An upload up to the limit stays in memory; a larger one is spooled to a temporary file only
# to be refused (the limit is checked before the file is read).
FILE_UPLOAD_MAX_MEMORY_SIZE = AGENTV_MAX_UPLOAD_BYTES
# The case editor posts about 11 fields per turn: room for cases of well over 1,000 turns.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 20_000

# HTTPS. Production defaults are strict; each setting can be relaxed for a trial over plain
# HTTP (docs/deployment.md). Behind a proxy that terminates TLS, it must set
# X-Forwarded-Proto and DJANGO_TRUST_X_FORWARDED_PROTO must be on, or every request looks
# like plain HTTP and is redirected forever.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
if env_bool("DJANGO_TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# Preloading is the domain owner's choice: "do not include the preload directive by default"
# (https://hstspreload.org/#opt-in), so check --deploy's reminder of it is silenced until then.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SESSION_COOKIE_HTTPONLY = True
# Pages read the CSRF token from the page itself (a form field, htmx's `hx-headers`), never
# from the cookie, so scripts need not see the cookie.
CSRF_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content Security Policy (django-csp 4): scripts, styles and everything else only from our own
# origin; no inline code, no eval. Templates have no inline <script> or style attribute
# (STYLE.md), and htmx is told not to inject its indicator <style> (templates/base.html).
# https://django-csp.readthedocs.io/en/latest/configuration.html
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Django's own configuration stays (DEFAULT_LOGGING); refused requests are logged as one line.
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "client_errors_in_one_line": {"()": "agentv_web.log_filters.ClientErrorsInOneLine"}
    },
    "loggers": {"django.request": {"filters": ["client_errors_in_one_line"]}},
}
if not DEBUG:
    # Without DEBUG, Django only mails errors (to ADMINS, if any): send warnings and errors to
    # standard error too, where gunicorn's log and the service manager's journal keep them.
    LOGGING["handlers"] = {"console": {"class": "logging.StreamHandler"}}
    LOGGING["root"] = {"handlers": ["console"], "level": "WARNING"}

# Notification emails (docs/configuration.md, "Email"): printed to the console unless an SMTP
# server is set; links in them start with AGENTV_SITE_URL.
EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "agentv-web <noreply@localhost>")
AGENTV_SITE_URL = os.environ.get("AGENTV_SITE_URL", "http://localhost:8000").rstrip("/")
