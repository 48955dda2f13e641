"""platform.github: deleted or exposed repositories, deleted releases, secrets and
other GitHub data, through `gh` and through HTTP calls to the API."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._http import api_calls, body_matches, host_api_calls
from .._invocation import command, option_value, option_values, pack_rule

_API = "api.github.com"
_REPOSITORY_URLS = (f"{_API}/repos/*/*",)

DELETE_REPOSITORY = pack_rule(
    id="PL101",
    name="github-delete-repository",
    severity=Severity.HIGH,
    summary="Deletes a GitHub repository (`gh repo delete`, or `DELETE /repos/OWNER/REPO` through `gh api` or curl).",
    rationale="The repository goes with its issues, pull requests, releases, wiki and settings; only its clones keep the code.",
    safer_alternative="Archive it (`gh repo archive`) or make it private; delete only after checking the name twice.",
    matches=(
        command("gh", "repo delete"),
        host_api_calls("gh", _API, ("DELETE",), *_REPOSITORY_URLS),
        *api_calls(("DELETE",), *_REPOSITORY_URLS),
    ),
    message="deletes a GitHub repository",
    must_match=(
        "gh repo delete acme/api --yes",
        "gh api -X DELETE repos/acme/api",
        "curl -X DELETE -H 'Authorization: token T' https://api.github.com/repos/acme/api",
    ),
    must_not_match=("gh repo view acme/api", "gh api repos/acme/api", "curl https://api.github.com/repos/acme/api"),
)

# `gh api` fields, and a request body, that make a repository public.
_PUBLIC_FIELDS = option_values(dict.fromkeys(("--raw-field", "--field"), ("private=false", "visibility=public")))
_PUBLIC_BODY = body_matches(
    r'"private"\s*:\s*false', r'"visibility"\s*:\s*"public"', r"^private:=false$", r"^visibility:?=\W*public\W*$"
)

EXPOSE_REPOSITORY = pack_rule(
    id="PL102",
    name="github-make-repository-public",
    severity=Severity.HIGH,
    summary="Makes a repository public: `gh repo edit --visibility public`, `PATCH /repos/OWNER/REPO` with `private=false` or `visibility=public` (through `gh api` or curl), or `gh repo create --public --source DIR`, which publishes an existing repository's history.",
    rationale="Code, history and any secret ever committed become public at once; forks and caches keep them after you switch back.",
    safer_alternative="Review the history for secrets first and let a person with the authority flip the visibility.",
    matches=(
        command("gh", "repo edit", where=option_value("--visibility", "public")),
        command("gh", "repo create", requires=("--public", "--source")),
        host_api_calls("gh", _API, ("PATCH",), *_REPOSITORY_URLS, where=(_PUBLIC_FIELDS,)),
        *api_calls(("PATCH",), *_REPOSITORY_URLS, where=(_PUBLIC_BODY,)),
    ),
    message="makes a repository public",
    must_match=(
        "gh repo edit acme/api --visibility public --accept-visibility-change-consequences",
        "gh repo edit --visibility=public",
        "gh repo create acme/api --public --source=. --push",
        "gh api -X PATCH repos/acme/api -f visibility=public",
        "gh api --method PATCH /repos/acme/api -F private=false",
        """curl -X PATCH -H "Authorization: Bearer $T" https://api.github.com/repos/acme/api -d '{"private": false}'""",
    ),
    must_not_match=(
        "gh repo edit --visibility private",
        "gh repo edit --description 'API server'",
        "gh repo create acme/api --private --source=. --push",
        "gh api -X PATCH repos/acme/api -f description=API",
        "gh api -X PATCH repos/acme/api -F private=true",
        """curl -X PATCH https://api.github.com/repos/acme/api -d '{"has_wiki": false}'""",
    ),
)

CREATE_PUBLIC = pack_rule(
    id="PL104",
    name="github-create-public-repository",
    severity=Severity.MEDIUM,
    summary="Creates a new public repository (`gh repo create NAME --public`) without publishing a local one (PL102 judges `--source`).",
    rationale="Whatever is pushed to it next is public at once, and who may publish under the account or organisation is a person's call; the repository itself starts empty (or from a template), so the command runs and the warning says so.",
    safer_alternative="Create it `--private` and let a person make it public when its contents have been reviewed.",
    matches=(command("gh", "repo create", requires=("--public",), unless=("--source",)),),
    message="creates a public repository",
    must_match=("gh repo create acme/site --public", "gh repo new demo --public --add-readme --license mit"),
    must_not_match=(
        "gh repo create acme/site --private",
        "gh repo create acme/site --internal",
        "gh repo view acme/site",
    ),
)

DELETE_DATA = pack_rule(
    id="PL103",
    name="github-delete-data",
    severity=Severity.MEDIUM,
    summary="Deletes GitHub data other than a repository: releases and assets, secrets and variables, issues, workflow runs, caches, codespaces, keys, or any other `DELETE` on the API.",
    rationale="Deleted releases, issues and secrets are not recoverable, though each is limited to what the command names.",
    safer_alternative="Check the target (`gh release view`, `gh secret list`) and prefer editing or archiving over deleting.",
    matches=(
        *(
            command("gh", path)
            for path in (
                "release delete", "release delete-asset", "secret delete", "variable delete", "run delete",
                "issue delete", "ssh-key delete", "repo archive",
            )
        ),
        command("gh", "cache delete", requires=("--all",)),
        command("gh", "codespace delete", requires=("--all",)),
        host_api_calls("gh", _API, ("DELETE",), f"{_API}/**", excluding=_REPOSITORY_URLS),
        *api_calls(("DELETE",), f"{_API}/**", excluding=_REPOSITORY_URLS),
    ),
    message="deletes GitHub data",
    must_match=("gh release delete v1.2.0 --yes --cleanup-tag", "gh secret delete NPM_TOKEN", "gh api --method DELETE /repos/acme/api/git/refs/tags/v1"),
    must_not_match=("gh release list", "gh pr list --state open", "gh secret list"),
)  # fmt: skip

PACK = Pack(
    name="platform.github",
    summary="GitHub through `gh` and its REST API: repository deletion, exposure and public creation, releases, secrets, issues and other data.",
    default=True,
    reason="A deleted repository, release or secret cannot be restored by the agent, and a public repository cannot be unpublished.",
    rules=(DELETE_REPOSITORY, EXPOSE_REPOSITORY, DELETE_DATA, CREATE_PUBLIC),
)
