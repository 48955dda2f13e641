"""platform.gitlab: deleted projects and other GitLab data, through `glab` and
through HTTP calls to the API (gitlab.com or a self-hosted instance)."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._http import api_calls, body_matches, host_api_calls
from .._invocation import command, option_values, pack_rule

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

# `PUT /projects/ID` fields and bodies that set the visibility to public (form or JSON).
_PUBLIC_FIELDS = option_values(dict.fromkeys(("--raw-field", "--field"), ("visibility=public",)))
_PUBLIC_BODY = body_matches(
    r"(^|&)visibility=public(&|$)", r'"visibility"\s*:\s*"public"', r"^visibility:?=\W*public\W*$"
)

EXPOSE_PROJECT = pack_rule(
    id="PL203",
    name="gitlab-make-project-public",
    severity=Severity.HIGH,
    summary="Makes a GitLab project public (`PUT /api/v4/projects/ID` with `visibility=public`, through `glab api` or curl).",
    rationale="Code, history and any secret ever committed become public at once; clones and caches keep them after you switch back.",
    safer_alternative="Review the history for secrets first and let a person with the authority change the visibility.",
    matches=(
        host_api_calls("glab", _API, ("PUT",), *_PROJECT_URLS, where=(_PUBLIC_FIELDS,)),
        *api_calls(("PUT",), *_PROJECT_URLS, where=(_PUBLIC_BODY,)),
    ),
    message="makes a GitLab project public",
    must_match=(
        "glab api -X PUT projects/42 -f visibility=public",
        "curl --request PUT --header 'PRIVATE-TOKEN: T' 'https://gitlab.example.com/api/v4/projects/42' --data 'visibility=public'",
    ),
    must_not_match=(
        "glab api -X PUT projects/42 -f visibility=private",
        "curl --request PUT https://gitlab.example.com/api/v4/projects/42 --data 'description=app'",
    ),
)

CREATE_PUBLIC = pack_rule(
    id="PL204",
    name="gitlab-create-public-project",
    severity=Severity.MEDIUM,
    summary="Creates a public GitLab project (`glab repo create NAME --public`).",
    rationale="Whatever is pushed to it next is public at once, and who may publish under the group is a person's call; the project starts empty, so the command runs and the warning says so.",
    safer_alternative="Create it `--private` and let a person make it public when its contents have been reviewed.",
    matches=(command("glab", "repo create", requires=("--public",)),),
    message="creates a public GitLab project",
    must_match=("glab repo create acme/site --public", "glab repo new --public --readme"),
    must_not_match=("glab repo create acme/site --private", "glab repo view acme/site"),
)

PACK = Pack(
    name="platform.gitlab",
    summary="GitLab through `glab` and its REST API: project deletion and exposure, public projects created, releases, variables, merge requests, issues.",
    default=True,
    reason="A deleted project, release or variable cannot be restored by the agent, and a project made public cannot be unpublished.",
    rules=(DELETE_PROJECT, DELETE_DATA, EXPOSE_PROJECT, CREATE_PUBLIC),
)
