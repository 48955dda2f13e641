"""iac.stacks: destroying stacks with pulumi, the AWS CDK, cdktf and the Serverless
Framework, and pulumi's unreviewed updates and state edits."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, option_value, pack_rule

DESTROY = pack_rule(
    id="IC101",
    name="stack-destroy",
    severity=Severity.HIGH,
    summary="Destroys a deployed stack: `pulumi destroy`, `cdk destroy`, `cdktf destroy`, `serverless remove`, `sam delete`.",
    rationale="Every resource of the stack is deleted, with the data in its databases, buckets and queues.",
    safer_alternative="`pulumi destroy --preview-only` (or `cdk diff`) to see what goes; destroy only stacks you created for the task.",
    matches=(
        command("pulumi", "destroy", unless=("--preview-only",)),
        command(("cdk", "cdktf"), "destroy"),
        command(("serverless", "sls"), "remove"),
        command("sam", "delete"),
    ),
    message="destroys a deployed stack and its resources",
    must_match=(
        "pulumi destroy --yes --stack prod",
        "cdk destroy --force MyStack",
        "sls remove --stage prod",
        "sam delete --stack-name api --no-prompts",
    ),
    must_not_match=("pulumi destroy --preview-only", "pulumi preview", "cdk diff MyStack", "sam deploy --guided"),
)

UNREVIEWED_UPDATE = pack_rule(
    id="IC102",
    name="stack-update-unreviewed",
    severity=Severity.MEDIUM,
    summary="Deploys without review: `pulumi up --yes`, `cdk deploy --require-approval never`.",
    rationale="The update performs whatever the program now says, replacements and deletions included, with no one seeing the preview.",
    safer_alternative="Run `pulumi preview` (or `cdk diff`) and deploy after reading it.",
    matches=(
        command("pulumi", "up", requires=("--yes",)),
        command(("cdk", "cdktf"), "deploy", requires=("--auto-approve",)),
        command(("cdk", "cdktf"), "deploy", where=option_value("--require-approval", "never")),
    ),
    message="deploys changes nobody reviewed",
    must_match=("pulumi up --yes --stack dev", "cdk deploy --require-approval never --all"),
    must_not_match=("pulumi up", "cdk deploy MyStack"),
)

STATE_EDIT = pack_rule(
    id="IC103",
    name="stack-state-edit",
    severity=Severity.MEDIUM,
    summary="Removes a pulumi stack or deletes resources from its state (`pulumi stack rm`, `pulumi state delete`).",
    rationale="Resources forgotten by the state keep running unmanaged; a removed stack loses its configuration and history.",
    safer_alternative="Destroy through `pulumi destroy` after a preview, or export the state first (`pulumi stack export`).",
    matches=(command("pulumi", "stack rm"), command("pulumi", "state delete")),
    message="edits pulumi stacks or state by hand",
    must_match=("pulumi stack rm dev --yes", "pulumi state delete 'urn:pulumi:dev::app::aws:s3/bucket:Bucket::logs'"),
    must_not_match=("pulumi stack ls", "pulumi stack export --file backup.json"),
)

PACK = Pack(
    name="iac.stacks",
    summary="pulumi, the AWS CDK, cdktf and the Serverless Framework: stack destruction, unreviewed deploys, state edits.",
    default=True,
    reason="A destroyed stack deletes cloud infrastructure and its data, which the agent cannot restore.",
    rules=(DESTROY, UNREVIEWED_UPDATE, STATE_EDIT),
)
