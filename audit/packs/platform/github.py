"""platform.github: deleted or exposed repositories, deleted releases, secrets and
other GitHub data, through `gh` and through HTTP calls to the API."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._http import api_calls, body_matches, host_api_calls
from .._invocation import command, option_value, option_values, pack_rule

_API = "api.github.com"
_REPOSITORY_URLS = (f"{_API}/repos/*/*",)
_TRANSFER_URLS = (f"{_API}/repos/*/*/transfer",)
# Branch protection and rulesets: what stops a force push to main or a merge without review.
_PROTECTION_URLS = (
    f"{_API}/repos/*/*/branches/*/protection", f"{_API}/repos/*/*/branches/*/protection/**",
    f"{_API}/repos/*/*/rulesets/*", f"{_API}/orgs/*/rulesets/*",
)  # fmt: skip

DELETE_REPOSITORY = pack_rule(
    id="PL101",
    name="github-delete-repository",
    severity=Severity.HIGH,
    summary="Deletes a GitHub repository (`gh repo delete`, or `DELETE /repos/OWNER/REPO` through `gh api` or curl), or transfers it to another owner (`POST /repos/OWNER/REPO/transfer`).",
    rationale="The repository goes with its issues, pull requests, releases, wiki and settings; only its clones keep the code.",
    safer_alternative="Archive it (`gh repo archive`) or make it private; delete only after checking the name twice.",
    matches=(
        command("gh", "repo delete"),
        host_api_calls("gh", _API, ("DELETE",), *_REPOSITORY_URLS),
        *api_calls(("DELETE",), *_REPOSITORY_URLS),
        host_api_calls("gh", _API, ("POST",), *_TRANSFER_URLS),
        *api_calls(("POST",), *_TRANSFER_URLS),
    ),
    message="deletes a GitHub repository or gives it away",
    must_match=(
        "gh repo delete acme/api --yes",
        "gh api -X DELETE repos/acme/api",
        "curl -X DELETE -H 'Authorization: token T' https://api.github.com/repos/acme/api",
        "gh api repos/acme/api/transfer -f new_owner=someone-else",
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
    summary="Deletes GitHub data other than a repository: releases and assets (a published asset replaced by `gh release upload --clobber` too), secrets and variables, issues, workflow runs, caches, codespaces, keys, or any other `DELETE` on the API.",
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
        command("gh", "release upload", requires=("--clobber",)),
        command("gh", "cache delete", requires=("--all",)),
        command("gh", "codespace delete", requires=("--all",)),
        host_api_calls("gh", _API, ("DELETE",), f"{_API}/**", excluding=(*_REPOSITORY_URLS, *_PROTECTION_URLS)),
        *api_calls(("DELETE",), f"{_API}/**", excluding=(*_REPOSITORY_URLS, *_PROTECTION_URLS)),
    ),
    message="deletes GitHub data",
    must_match=("gh release delete v1.2.0 --yes --cleanup-tag", "gh secret delete NPM_TOKEN", "gh api --method DELETE /repos/acme/api/git/refs/tags/v1", "gh release upload v1.2.0 dist/app.tar.gz --clobber"),
    must_not_match=("gh release list", "gh pr list --state open", "gh secret list", "gh release upload v1.2.0 dist/app.tar.gz"),
)  # fmt: skip

# Who and what may sign in, push or receive the repository's events: collaborators, organisation
# members, SSH and deploy keys, webhooks.
_ACCESS_URLS = (
    f"{_API}/repos/*/*/collaborators/*", f"{_API}/orgs/*/memberships/*", f"{_API}/orgs/*/outside_collaborators/*",
    f"{_API}/repos/*/*/keys", f"{_API}/user/keys", f"{_API}/repos/*/*/hooks", f"{_API}/orgs/*/hooks",
)  # fmt: skip

ADD_ACCESS = pack_rule(
    id="PL105",
    name="github-add-access",
    severity=Severity.HIGH,
    summary="Gives someone a standing way in: an SSH key on the account (`gh ssh-key add`), a deploy key that can push (`gh repo deploy-key add --allow-write`), a collaborator, organisation member, key or webhook added through the API (`PUT /repos/O/R/collaborators/USER`, `POST /repos/O/R/keys`, `POST /user/keys`, `POST /repos/O/R/hooks`).",
    rationale="A key or collaborator signs in or pushes until someone notices and removes it, an account key reaches every repository the user can; a webhook sends every push and event, code included, to its URL.",
    safer_alternative="Let a person grant access in the repository's settings; use a read-only deploy key, a fine-grained token with an expiry, or a GitHub App.",
    matches=(
        command("gh", "ssh-key add"),
        command("gh", "repo deploy-key add", requires=("--allow-write",)),
        host_api_calls("gh", _API, ("PUT", "POST"), *_ACCESS_URLS),
        *api_calls(("PUT", "POST"), *_ACCESS_URLS),
    ),
    message="gives someone a standing way into GitHub",
    must_match=(
        "gh ssh-key add evil.pub",
        "gh repo deploy-key add evil.pub --allow-write",
        "gh api -X PUT repos/o/r/collaborators/attacker -f permission=admin",
    ),
    must_not_match=("gh repo deploy-key add ci.pub --title ci", "gh api repos/o/r/collaborators", "gh ssh-key delete 1 --yes"),
)  # fmt: skip

REMOVE_PROTECTION = pack_rule(
    id="PL106",
    name="github-remove-branch-protection",
    severity=Severity.HIGH,
    summary="Removes a branch's protection or a ruleset (`DELETE /repos/O/R/branches/BRANCH/protection`, `DELETE .../rulesets/ID`, through `gh api` or curl).",
    rationale="Protection is what stops a force push to main, a merge without review and a deleted release branch; with it gone, the next mistake or hostile push goes straight in, and whoever set it up may not notice for a long time.",
    safer_alternative="Let a person change protection in the repository's settings; ask for a bypass for the one change instead.",
    matches=(
        host_api_calls("gh", _API, ("DELETE",), *_PROTECTION_URLS),
        *api_calls(("DELETE",), *_PROTECTION_URLS),
    ),
    message="removes branch protection",
    must_match=(
        "gh api -X DELETE repos/o/r/branches/main/protection",
        "curl -X DELETE https://api.github.com/repos/o/r/rulesets/7",
    ),
    must_not_match=("gh api repos/o/r/branches/main/protection", "gh api -X DELETE repos/o/r/git/refs/heads/old"),
)

CHANGE_REPOSITORY = pack_rule(
    id="PL107",
    name="github-change-repository",
    severity=Severity.MEDIUM,
    summary="Changes what others rely on in a repository: renames it (`gh repo rename`), disables a workflow, adds a read-only deploy key, rewrites branch protection or a ruleset (`PUT .../protection` may turn every requirement off), or merges past protection (`gh pr merge --admin`). `gh secret set` passes.",
    rationale="A rename breaks every clone's remote and every link, a disabled workflow may be the security scan or the release, a deploy key reads the whole repository, and an admin merge skips the required reviews and checks for that change; each is routine in some workflows, so the command runs and the warning says what changed.",
    safer_alternative="Check the target first (`gh workflow list`, `gh repo deploy-key list`), and make repository settings changes through a person or the organisation's settings as code.",
    matches=(
        command("gh", "repo rename"),
        command("gh", "workflow disable"),
        command("gh", "repo deploy-key add", unless=("--allow-write",)),
        command("gh", "pr merge", requires=("--admin",)),
        host_api_calls("gh", _API, ("PUT", "PATCH", "POST"), *_PROTECTION_URLS),
        *api_calls(("PUT", "PATCH", "POST"), *_PROTECTION_URLS),
    ),
    message="changes a repository's name, workflows, keys or branch protection, or merges past its protection",
    must_match=(
        "gh repo rename newname --yes",
        "gh workflow disable security-scan.yml",
        "gh pr merge 482 --admin --squash",
        "gh api -X PUT repos/o/r/branches/main/protection -F enforce_admins=false -F required_pull_request_reviews=null",
    ),
    must_not_match=("gh workflow list", "gh secret set NPM_TOKEN --body x", "gh pr merge 482 --squash --delete-branch"),
)

_PUBLIC_GIST = option_values(dict.fromkeys(("--raw-field", "--field"), ("public=true",)))

PUBLIC_GIST = pack_rule(
    id="PL108",
    name="github-public-gist",
    severity=Severity.MEDIUM,
    summary="Publishes files as a public gist (`gh gist create --public FILE`, or `POST /gists` with `public=true` through `gh api`).",
    rationale="A public gist is listed on the account's profile, indexed by search engines and crawled for secrets within minutes; deleting it later does not take back the copies. Sharing a snippet is routine, so the command runs and the warning names what goes public.",
    safer_alternative="Create a secret gist (the default, reachable only by its link) or share the file through the repository, after reading what it holds.",
    matches=(
        command("gh", "gist create", requires=("--public",)),
        host_api_calls("gh", _API, ("POST",), f"{_API}/gists", where=(_PUBLIC_GIST,)),
    ),
    message="publishes files as a public gist",
    must_match=("gh gist create --public notes.txt", "gh gist new -p -d 'debug output' build.log", "gh api gists -F public=true -f 'files[a.txt][content]=x'"),
    must_not_match=("gh gist create notes.txt", "gh gist list", "gh api gists -F public=false -f 'files[a.txt][content]=x'"),
)  # fmt: skip

PACK = Pack(
    name="platform.github",
    summary="GitHub through `gh` and its REST API: repository deletion, transfer, exposure and public creation, releases, secrets, issues and other data; keys, collaborators and webhooks added, branch protection removed, renames, disabled workflows and merges past branch protection; files published as public gists.",
    default=True,
    reason="A deleted repository, release or secret cannot be restored by the agent, and a public repository cannot be unpublished.",
    rules=(
        DELETE_REPOSITORY,
        EXPOSE_REPOSITORY,
        DELETE_DATA,
        CREATE_PUBLIC,
        ADD_ACCESS,
        REMOVE_PROTECTION,
        CHANGE_REPOSITORY,
        PUBLIC_GIST,
    ),
)
