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
# Protected branches and tags: what stops a force push, an unreviewed merge or a deleted release tag.
_PROTECTION_URLS = ("*/api/v4/projects/*/protected_branches/*", "*/api/v4/projects/*/protected_tags/*")

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
        host_api_calls("glab", _API, ("DELETE",), "*/api/v4/**", excluding=(*_PROJECT_URLS, *_PROTECTION_URLS)),
        *api_calls(("DELETE",), "*/api/v4/**", excluding=(*_PROJECT_URLS, *_PROTECTION_URLS)),
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

# Who and what may sign in, push or receive the project's events: members, SSH and deploy keys, webhooks.
_ACCESS_URLS = (
    "*/api/v4/projects/*/members", "*/api/v4/groups/*/members", "*/api/v4/projects/*/members/*",
    "*/api/v4/groups/*/members/*", "*/api/v4/projects/*/deploy_keys", "*/api/v4/user/keys", "*/api/v4/projects/*/hooks",
    "*/api/v4/groups/*/hooks",
)  # fmt: skip

ADD_ACCESS = pack_rule(
    id="PL205",
    name="gitlab-add-access",
    severity=Severity.HIGH,
    summary="Gives someone a standing way in: an SSH key on the account (`glab ssh-key add`), a deploy key that can push (`glab deploy-key add --can-push`), or a member, key or webhook added through the API (`POST /projects/ID/members`, `/deploy_keys`, `/user/keys`, `/hooks`).",
    rationale="A key or member signs in or pushes until someone notices and removes it, an account key reaches every project the user can; a webhook sends every push and event to its URL.",
    safer_alternative="Let a person grant access in the project's settings; use a read-only deploy key or a project access token with an expiry.",
    matches=(
        command("glab", "ssh-key add"),
        command("glab", "deploy-key add", requires=("--can-push",)),
        host_api_calls("glab", _API, ("PUT", "POST"), *_ACCESS_URLS),
        *api_calls(("PUT", "POST"), *_ACCESS_URLS),
    ),
    message="gives someone a standing way into GitLab",
    must_match=(
        "glab ssh-key add evil.pub --title laptop",
        "glab deploy-key add evil.pub --can-push --title ci",
        "glab api projects/42/members -f user_id=7 -f access_level=50",
    ),
    must_not_match=("glab deploy-key add ci.pub --title ci", "glab api projects/42/members"),
)

REMOVE_PROTECTION = pack_rule(
    id="PL206",
    name="gitlab-remove-branch-protection",
    severity=Severity.HIGH,
    summary="Unprotects a branch or tag (`DELETE /projects/ID/protected_branches/NAME`, `protected_tags/NAME`, through `glab api` or curl).",
    rationale="Protection is what stops a force push to the default branch, an unreviewed merge and a deleted release tag; with it gone, the next mistake or hostile push goes straight in.",
    safer_alternative="Let a person change protection in the project's settings; ask for the one change to be allowed instead.",
    matches=(
        host_api_calls("glab", _API, ("DELETE",), *_PROTECTION_URLS),
        *api_calls(("DELETE",), *_PROTECTION_URLS),
    ),
    message="removes branch protection",
    must_match=(
        "glab api -X DELETE projects/42/protected_branches/main",
        "curl --request DELETE https://gitlab.example.com/api/v4/projects/42/protected_tags/v1",
    ),
    must_not_match=("glab api projects/42/protected_branches", "glab api -X DELETE projects/42/pipelines/9"),
)

PACK = Pack(
    name="platform.gitlab",
    summary="GitLab through `glab` and its REST API: project deletion and exposure, public projects created, releases, variables, merge requests, issues; keys, members and webhooks added, branch protection removed.",
    default=True,
    reason="A deleted project, release or variable cannot be restored by the agent, and a project made public cannot be unpublished.",
    rules=(DELETE_PROJECT, DELETE_DATA, EXPOSE_PROJECT, CREATE_PUBLIC, ADD_ACCESS, REMOVE_PROTECTION),
)
