"""Forms of the workspace and suite pages: they parse and label the input; services judge it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from .eval_files.dialects import PROFILE_LABELS
from .formatting.token_counts import ENCODINGS
from .models import Membership, ReviewStatus
from .services.cases.work_list import CONFLICTS, LINT, MARKERS, SORTS, WARNINGS, CaseListing
from .services.workspaces.lifecycle import MAX_CONTEXT_WINDOW


def _one_line_ends(text: str) -> str:
    # Browsers submit a textarea's line ends as CRLF (HTML spec, "textarea wrapping"); files
    # written here keep the LF line ends of the files imported from a repository.
    return text.replace("\r\n", "\n")


class PageForm(forms.Form):
    """A form that shares its page with others: ids start with `id_prefix`, so they stay unique
    while the field names stay plain (`path`, not `suite-path`)."""

    id_prefix = "form"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", f"{self.id_prefix}-%s")
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class SuiteForm(PageForm):
    """A new, empty eval file, in one of the formats `profiles` offers (name, label; the first
    is chosen when none is posted)."""

    id_prefix = "new-suite"

    path = forms.CharField(
        label="Path of the new eval file",
        max_length=1000,
        strip=False,  # spaces around a path are refused by the service, with a message
        widget=forms.TextInput(attrs={"placeholder": "evals/new.yaml", "spellcheck": "false"}),
    )
    profile = forms.ChoiceField(label="Format", required=False)

    def __init__(self, *args: Any, profiles: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["profile"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = profiles
        field.initial = profiles[0][0]
        self.default_profile = profiles[0][0]

    def clean_profile(self) -> str:
        return self.cleaned_data["profile"] or self.default_profile


class FileForm(PageForm):
    """A workspace file typed in: its path and text."""

    id_prefix = "file"

    path = forms.CharField(
        label="Path",
        max_length=1000,
        strip=False,  # spaces around a path are refused by the service, with a message
        widget=forms.TextInput(
            attrs={"placeholder": "prompts/review.instructions.md", "spellcheck": "false"}
        ),
    )
    text = forms.CharField(
        label="Text",
        required=False,
        strip=False,  # leading indentation and trailing newlines are part of a file
        widget=forms.Textarea(attrs={"rows": 12, "class": "code", "spellcheck": "false"}),
    )

    def clean_text(self) -> str:
        return _one_line_ends(self.cleaned_data["text"])


class UploadForm(PageForm):
    """A text file uploaded from the user's computer."""

    id_prefix = "upload"

    file = forms.FileField(label="File")
    path = forms.CharField(
        label="Path in the workspace (default: the file's name)",
        required=False,
        max_length=1000,
        strip=False,  # spaces around a path are refused by the service, with a message
        widget=forms.TextInput(
            attrs={"placeholder": "judges/correctness.md", "spellcheck": "false"}
        ),
    )
    replace = forms.BooleanField(label="Replace a file already at that path", required=False)


class PatternsForm(PageForm):
    """The guideline patterns of one `.agentv/config.yaml`, one glob per line."""

    id_prefix = "guideline"

    config = forms.CharField(max_length=1000, required=False, widget=forms.HiddenInput())
    patterns = forms.CharField(
        label="Guideline patterns, one glob per line",
        required=False,  # "at least one" is the service's rule, with its own message
        widget=forms.Textarea(attrs={"rows": 4, "class": "code", "spellcheck": "false"}),
    )


class CaseForm(PageForm):
    """A new case: its id (the editor fills in the rest)."""

    id_prefix = "new-case"

    case_id = forms.CharField(
        label="New case id",
        max_length=200,
        strip=False,  # spaces around an id are refused by the service, with a message
        widget=forms.TextInput(attrs={"placeholder": "review-js", "spellcheck": "false"}),
    )


class MemberForm(PageForm):
    """A user to add to the workspace, with a role."""

    id_prefix = "member"

    # An email no account has gets an invitation link instead (services/workspaces/invitations).
    username = forms.CharField(label="Username or email", max_length=254)
    role = forms.ChoiceField(label="Role", choices=Membership.Role.choices, initial="editor")


class SuitePathForm(PageForm):
    """A suite's new path."""

    id_prefix = "suite"

    path = forms.CharField(
        label="Path of the eval file",
        max_length=1000,
        strip=False,  # spaces around a path are refused by the service, with a message
        widget=forms.TextInput(attrs={"spellcheck": "false"}),
    )


class SuiteFieldsForm(PageForm):
    """A suite's top-level fields as YAML (the service reads and judges them)."""

    id_prefix = "suite"

    fields_yaml = forms.CharField(
        label="Top-level fields (YAML)",
        required=False,
        max_length=1_000_000,
        strip=False,  # indentation is YAML's structure
        widget=forms.Textarea(attrs={"rows": 16, "class": "code", "spellcheck": "false"}),
    )

    def clean_fields_yaml(self) -> str:
        return _one_line_ends(self.cleaned_data["fields_yaml"])


class SuiteProfileForm(PageForm):
    """The profile that formats a suite's cases."""

    id_prefix = "suite"

    profile = forms.ChoiceField(
        label="Profile",
        choices=list(PROFILE_LABELS.items()),
    )


class WorkspaceForm(PageForm):
    """A workspace's name: a new workspace, or a new name for one."""

    id_prefix = "workspace"

    name = forms.CharField(label="Name", max_length=200)


class CheckoutFolderForm(PageForm):
    """Where the workspace's repository is checked out on the machine that runs AgentV."""

    id_prefix = "checkout"

    checkout_folder = forms.CharField(
        label="Checkout folder",
        max_length=1000,
        required=False,
        widget=forms.TextInput(
            attrs={
                "placeholder": "/home/you/agentv-repo",
                "spellcheck": "false",
                "aria-describedby": "checkout-folder-help",
            }
        ),
    )


class TokenCountsForm(PageForm):
    """How the editor counts tokens, and the context window it counts them against."""

    id_prefix = "tokens"

    token_encoding = forms.ChoiceField(
        label="Encoding", choices=[(name, name) for name in ENCODINGS]
    )
    context_window = forms.IntegerField(
        label="Context window (tokens)", min_value=1, max_value=MAX_CONTEXT_WINDOW
    )


class WorkspaceImportForm(PageForm):
    """A .zip of a workspace folder (an AgentV repository root) and the name to import it as."""

    id_prefix = "import"

    archive = forms.FileField(
        label="Workspace folder as a .zip",
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,application/zip"}),
    )
    name = forms.CharField(
        label="Workspace name (default: the folder's name)", max_length=200, required=False
    )


class WorkspaceDeleteForm(PageForm):
    """The workspace's name typed again, to confirm its deletion."""

    id_prefix = "delete"

    confirm_name = forms.CharField(label="Type the workspace's name to confirm", max_length=200)


class CaseListForm(PageForm):
    """The suite page's search, filters and order, read from its query string (a GET form).

    A value that is not one of the choices counts as no filter: a stale or mistyped link still
    shows the suite.
    """

    id_prefix = "list"

    q = forms.CharField(
        label="Search cases",
        required=False,
        widget=forms.TextInput(
            attrs={
                "type": "search",
                "id": "case-search",  # the box htmx never swaps (the table is re-rendered)
                "placeholder": "id, outcome or turn text",
                "autocomplete": "off",
            }
        ),
    )
    status = forms.ChoiceField(
        label="Review", required=False, choices=[("", "Any status"), *ReviewStatus.choices]
    )
    warnings = forms.ChoiceField(
        label="Warnings", required=False, choices=[("", "With or without"), *WARNINGS.items()]
    )
    lint = forms.ChoiceField(label="Lint", required=False, choices=[("", "Any"), *LINT.items()])
    markers = forms.ChoiceField(
        label="Role markers", required=False, choices=[("", "Any"), *MARKERS.items()]
    )
    conflicts = forms.ChoiceField(
        label="Conflicts", required=False, choices=[("", "Any"), *CONFLICTS.items()]
    )
    tag = forms.CharField(
        label="Tag",
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": "smoke", "spellcheck": "false"}),
    )
    # The page lists the review form's answers (`criterion id:value`) as the choices.
    score = forms.CharField(label="Score", required=False, max_length=200)
    sort = forms.ChoiceField(label="Sort by", required=False, choices=list(SORTS.items()))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The menus re-list the cases as soon as they change (the page's htmx trigger).
        for name in ("status", "warnings", "markers", "conflicts", "sort"):
            self.fields[name].widget.attrs["class"] = "list-filter"

    def listing(self) -> CaseListing:
        """The listing the valid fields ask for (the whole suite in its order when unbound)."""
        if not self.is_bound:
            return CaseListing()
        self.is_valid()  # fills `cleaned_data` with the valid fields only
        fields = {name: self.cleaned_data.get(name) or "" for name in self.fields}
        return CaseListing(**{name: value.strip() for name, value in fields.items()})


class _MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one input (Django's own recipe, "Uploading multiple files")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", _MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        """Every file cleaned, as a list."""
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class TestsImportForm(PageForm):
    """Files of another tool's tests (or a .zip of them), their format when it should not be
    detected, and the suite file they go to (docs/imports.md, "In the browser")."""

    __test__ = False
    id_prefix = "tests-import"

    uploads = MultipleFileField(label="Files, a folder's files, or a .zip of them")
    source = forms.ChoiceField(label="Their format", required=False)
    suite = forms.CharField(
        label="Suite file (a new path, or one of the suites of today's format)", max_length=1000
    )

    def __init__(self, *args: Any, formats: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        source = self.fields["source"]
        assert isinstance(source, forms.ChoiceField)
        source.choices = [("", "Detect it from each file"), *formats]
