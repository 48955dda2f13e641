"""platform.gitlab: deleted projects and other GitLab data, through `glab` and
through HTTP calls to the API (gitlab.com or a self-hosted instance)."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._http import api_calls, host_api_calls
from .._invocation import command, pack_rule

_API = "gitlab.com/api/v4"
# Any host: `/api/v4/projects/ID` is GitLab's API (self-hosted instances included).
_PROJECT_URLS = ("*/api/v4/projects/*",)

DELETE_PROJECT = pack_rule(
    id="PL201",
    name="gitlab-delete-project",
    severity=Severity.HIGH,
    summary="Deletes a GitLab project (`glab repo delete`, or `DELETE /api/v4/projects/ID`).",
    rationale="The project goes with its issues, merge requests, pipelines, registry and wiki; only clones keep the code.",
    safer_alternative="Archive the project (`glab repo archive`) instead.",
    matches=(
        command("glab", "repo delete"),
        host_api_calls("glab", _API, ("DELETE",), *_PROJECT_URLS),
        *api_calls(("DELETE",), *_PROJECT_URLS),
    ),
    message="deletes a GitLab project",
    must_match=(
        "glab repo delete group/app --yes",
        "glab api -X DELETE projects/42",
        "curl --request DELETE --header 'PRIVATE-TOKEN: T' https://gitlab.example.com/api/v4/projects/42",
    ),
    must_not_match=(
        "glab repo view group/app",
        "glab api projects/42",
        "curl https://gitlab.example.com/api/v4/projects/42",
    ),
)

DELETE_DATA = pack_rule(
    id="PL202",
    name="gitlab-delete-data",
    severity=Severity.MEDIUM,
    summary="Deletes GitLab data other than a project: releases, CI/CD variables, merge requests, issues, or any other `DELETE` on the API.",
    rationale="Deleted releases, variables and issues are not recoverable, though each is limited to what the command names.",
    safer_alternative="Check the target first (`glab release view`, `glab variable list`).",
    matches=(
        *(
            command("glab", path)
            for path in ("release delete", "variable delete", "mr delete", "issue delete", "repo archive")
        ),
        host_api_calls("glab", _API, ("DELETE",), "*/api/v4/**", excluding=_PROJECT_URLS),
        *api_calls(("DELETE",), "*/api/v4/**", excluding=_PROJECT_URLS),
    ),
    message="deletes GitLab data",
    must_match=(
        "glab release delete v2.0.0 --yes",
        "glab variable delete DEPLOY_TOKEN",
        "glab api --method DELETE projects/42/pipelines/1001",
    ),
    must_not_match=("glab mr list --state opened", "glab variable list", "glab api projects/42/pipelines"),
)

PACK = Pack(
    name="platform.gitlab",
    summary="GitLab through `glab` and its REST API: project deletion, releases, variables, merge requests, issues.",
    default=True,
    reason="A deleted project, release or variable cannot be restored by the agent.",
    rules=(DELETE_PROJECT, DELETE_DATA),
)
