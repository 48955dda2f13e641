"""cloud.aws: deleting data stores, infrastructure and audit trails with the aws CLI
(and eksctl). Object storage is the storage.s3 pack's, secrets and keys the
secrets.cloud pack's."""

from __future__ import annotations

from ..._model import Severity
from ...programs import KNOWN, Arg
from ...rules._pack import Pack
from .._invocation import Found, command, pack_rule

_DRY_RUN = ("--dry-run",)

# Deletions that take data with them, or a whole stack or cluster, with no undo.
_DATA = (
    "ec2 terminate-instances", "ec2 delete-volume", "ec2 delete-snapshot", "rds delete-db-snapshot",
    "rds delete-db-cluster-snapshot", "dynamodb delete-table", "dynamodb delete-backup",
    "elasticache delete-cache-cluster", "elasticache delete-replication-group", "elasticache delete-serverless-cache",
    "efs delete-file-system", "fsx delete-file-system", "redshift delete-cluster", "opensearch delete-domain",
    "es delete-elasticsearch-domain", "backup delete-backup-vault", "backup delete-recovery-point",
    "glacier delete-vault", "glacier delete-archive", "logs delete-log-group", "kinesis delete-stream",
    "sqs delete-queue", "sqs purge-queue", "cloudformation delete-stack", "eks delete-cluster",
    "organizations close-account", "organizations delete-organization",
)  # fmt: skip
# Database deletions keep a final snapshot unless told to skip it.
_DATABASES = tuple(f"{service} {operation}" for service in ("rds", "docdb", "neptune") for operation in ("delete-db-instance", "delete-db-cluster"))  # fmt: skip
# Deletions of resources that hold no data of their own, or keep a copy.
_RESOURCES = (
    "ec2 deregister-image", "ec2 delete-vpc", "ec2 delete-security-group", "ec2 delete-key-pair", "sns delete-topic",
    "lambda delete-function", "iam delete-user", "iam delete-role", "iam delete-policy", "iam delete-access-key",
    "elbv2 delete-load-balancer", "elb delete-load-balancer", "apigateway delete-rest-api",
    "cloudfront delete-distribution", "autoscaling delete-auto-scaling-group", "ecs delete-cluster",
    "ecs delete-service", "eks delete-nodegroup", "ecr batch-delete-image", "route53 delete-hosted-zone",
)  # fmt: skip
_AUDIT_TRAILS = (
    "cloudtrail delete-trail", "cloudtrail stop-logging", "guardduty delete-detector",
    "configservice stop-configuration-recorder", "configservice delete-configuration-recorder",
)  # fmt: skip

# The aws CLI names every deletion by its verb: an operation the lists above do not name
# (`cognito-idp delete-user-pool`, `memorydb delete-cluster`) is still one.
_DELETING_VERBS = ("delete-", "terminate-", "purge-")
# The services declared with some of their operations (`ec2`): an undeclared operation of one
# is read with the service as the command's path.
_DECLARED_SERVICES = tuple(path[0] for path in KNOWN["aws"].subcommand_paths() if len(path) == 1)


def _unlisted_deletion(found: Found) -> Arg | None:
    """`aws SERVICE delete-*` for an operation the lists above do not declare (not a help
    request or a dry run): the operation's word."""
    reading = found.reading
    if len(reading.path) > 1 or any(arg.value in ("help", "--dry-run") for arg in reading.args):
        return None
    operations = reading.operands[1 - len(reading.path) :]
    operation = operations[0] if operations else None
    if operation is None or not (operation.value or "").startswith(_DELETING_VERBS):
        return None
    return operation


DELETE_DATA = pack_rule(
    id="CL101",
    name="aws-delete-data",
    severity=Severity.HIGH,
    summary="Deletes an AWS data store, instance, volume, snapshot, stack or cluster (`ec2 terminate-instances`, `dynamodb delete-table`, `rds delete-db-instance --skip-final-snapshot`...).",
    rationale="These deletions take the data with them and AWS keeps no copy: terminated instances' disks, tables, snapshots and skipped final snapshots are gone.",
    safer_alternative="Snapshot or back up first; use `--dry-run` where the service has it; turn on deletion protection for production resources.",
    matches=(
        *(command("aws", path, unless=_DRY_RUN) for path in _DATA),
        *(command("aws", path, requires=("--skip-final-snapshot",)) for path in _DATABASES),
        command("aws", "ecr delete-repository", requires=("--force",)),
        command("eksctl", "delete cluster"),
    ),
    message="deletes AWS resources and their data",
    must_match=(
        "aws ec2 terminate-instances --instance-ids i-0abc",
        "aws dynamodb delete-table --table-name users",
        "aws rds delete-db-instance --db-instance-identifier db1 --skip-final-snapshot",
        "eksctl delete cluster --name dev",
    ),
    must_not_match=(
        "aws ec2 describe-instances",
        "aws ec2 terminate-instances --instance-ids i-0abc --dry-run",
        "aws dynamodb list-tables",
    ),
)

DELETE_RESOURCE = pack_rule(
    id="CL102",
    name="aws-delete-resource",
    severity=Severity.MEDIUM,
    summary="Deletes AWS infrastructure that holds no data of its own, a database with its final snapshot kept, or anything else by an operation named `delete-*`, `terminate-*` or `purge-*` that the data rule does not list.",
    rationale="Functions, load balancers, IAM principals and networks can be recreated, but whatever depends on them breaks at once.",
    safer_alternative="Check the account and region (`aws sts get-caller-identity`) and delete through the infrastructure code that created it.",
    matches=(
        *(command("aws", path, unless=_DRY_RUN) for path in _RESOURCES),
        *(command("aws", path, unless=("--skip-final-snapshot",)) for path in _DATABASES),
        command("aws", "ecr delete-repository", unless=("--force",)),
        command("aws", where=_unlisted_deletion),
        *(command("aws", service, where=_unlisted_deletion) for service in _DECLARED_SERVICES),
        command("eksctl", "delete nodegroup"),
    ),
    message="deletes AWS infrastructure",
    must_match=(
        "aws lambda delete-function --function-name api",
        "aws iam delete-role --role-name ci",
        "aws rds delete-db-cluster --db-cluster-identifier c1 --final-db-snapshot-identifier c1-final",
        "aws cognito-idp delete-user-pool --user-pool-id eu-west-1_abc",
        "aws --region us-east-1 memorydb delete-cluster --cluster-name cache",
    ),
    must_not_match=(
        "aws sts get-caller-identity",
        "aws cloudformation describe-stacks",
        "aws ec2 delete-vpc --vpc-id vpc-1 --dry-run",
        "aws cognito-idp list-user-pools --max-results 10",
        "aws memorydb delete-cluster help",
    ),
)

DISABLE_AUDIT = pack_rule(
    id="CL103",
    name="aws-disable-audit-trail",
    severity=Severity.MEDIUM,
    summary="Stops or deletes CloudTrail, GuardDuty or AWS Config recording.",
    rationale="Without the audit trail and threat detection, what happens next in the account goes unrecorded: a step attackers take first.",
    safer_alternative="Leave auditing on; change a trail's settings with `update-trail` instead.",
    matches=tuple(command("aws", path) for path in _AUDIT_TRAILS),
    message="turns off the account's audit trail or threat detection",
    must_match=("aws cloudtrail stop-logging --name main", "aws guardduty delete-detector --detector-id 12ab"),
    must_not_match=("aws logs tail /aws/lambda/api --follow", "aws cloudformation describe-stacks"),
)

PACK = Pack(
    name="cloud.aws",
    summary="The aws CLI and eksctl: data stores, instances, stacks and clusters, other infrastructure, audit trails.",
    default=True,
    reason="Deleted cloud data stores and instances cannot be restored by the agent, and the account may be production.",
    rules=(DELETE_DATA, DELETE_RESOURCE, DISABLE_AUDIT),
)
