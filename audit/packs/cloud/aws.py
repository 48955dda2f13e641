"""cloud.aws: deleting data stores, infrastructure and audit trails with the aws CLI
(and eksctl). Object storage is the storage.s3 pack's, secrets and keys the
secrets.cloud pack's."""

from __future__ import annotations

import re

from ..._model import Severity
from ...programs import KNOWN, Arg, Reading
from ...rules._pack import Pack
from .._invocation import Found, Predicate, command, option_value, pack_rule
from ._internet import WEB_PORTS, every_address_from
from .aws_changes import CHANGE_RULES
from .production import AWS_PRODUCTION_DEPLOY

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
    "securityhub disable-security-hub", "organizations leave-organization",
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
    if len(reading.path) > 1 or any(arg.value == "--dry-run" for arg in reading.args):
        return None
    operations = reading.operands[1 - len(reading.path) :]
    operation = operations[0] if operations else None
    if operation is None or not (operation.value or "").startswith(_DELETING_VERBS):
        return None
    # `aws SERVICE OPERATION help` prints the operation's help; `--name help` is a value.
    following = reading.args[reading.args.index(operation) + 1 :]
    return None if following[:1] and following[0].value == "help" else operation


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
        "aws memorydb delete-cluster --cluster-name help",
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
    severity=Severity.HIGH,
    summary="Stops or deletes CloudTrail, GuardDuty, Security Hub or AWS Config recording, or takes the account out of its organization (`organizations leave-organization`), whose trail and guardrails then stop applying.",
    rationale="Without the audit trail and threat detection, what happens next in the account goes unrecorded: a step attackers take first, as with a host's audit daemon (SC001). Events missed while recording is off are never recorded.",
    safer_alternative="Leave auditing on; change a trail's settings with `update-trail` instead, and let a person take an account out of the organization.",
    matches=(
        *(command("aws", path) for path in _AUDIT_TRAILS),
        command("aws", "guardduty update-detector", requires=("--no-enable",)),
    ),
    message="turns off the account's audit trail or threat detection",
    must_match=(
        "aws cloudtrail stop-logging --name main",
        "aws guardduty delete-detector --detector-id 12ab",
        "aws organizations leave-organization",
    ),
    must_not_match=(
        "aws logs tail /aws/lambda/api --follow",
        "aws cloudformation describe-stacks",
        "aws guardduty update-detector --detector-id 12ab --enable",
    ),
)

# `FromPort`/`ToPort` fields of `--ip-permissions` (shorthand or JSON).
_PORT_FIELD = re.compile(r'(From|To)Port"?\s*[:=]\s*"?(-?\d+)', re.IGNORECASE)
_WORLD_INGRESS = every_address_from("--cidr", "--ip-permissions")


def _web_ports_only(read: Reading) -> bool:
    """Whether the rule opens only port 80 or 443: `--port 443`, or every `FromPort`/`ToPort` of
    `--ip-permissions` one of them; no port (every port), a range or `-1` is not."""
    ports = [value for word in read.values("--port") for value in word.values]
    for word in read.values("--ip-permissions"):
        ports.extend(number for text in word.values for _, number in _PORT_FIELD.findall(text))
    return bool(ports) and all(port in WEB_PORTS for port in ports)


def _open_to_the_internet(found: Found) -> Arg | None:
    """An ingress rule from every address (`0.0.0.0/0`, `::/0`) to a port other than the web's."""
    world = _WORLD_INGRESS(found)
    return None if world is None or _web_ports_only(found.reading) else world


OPEN_TO_THE_INTERNET = pack_rule(
    id="CL104",
    name="aws-open-port-to-the-internet",
    severity=Severity.HIGH,
    summary="Opens a security group to every address on the internet (`0.0.0.0/0` or `::/0`) on a port other than 80 or 443: SSH, a database, every port.",
    rationale="Scanners find an open SSH or database port within minutes and try every password and known flaw on it; opening 80 or 443 to everyone is what a public web server needs, so those pass.",
    safer_alternative="Allow your own address (`--cidr 203.0.113.7/32`), the VPC's range or another security group (`--source-group`), or reach the host through SSM Session Manager or a bastion.",
    matches=(command("aws", "ec2 authorize-security-group-ingress", where=_open_to_the_internet, unless=_DRY_RUN),),
    message="opens a port to the whole internet",
    must_match=(
        "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0",
        "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol -1 --cidr 0.0.0.0/0",
        "aws ec2 authorize-security-group-ingress --group-id sg-1 --ip-permissions IpProtocol=tcp,FromPort=5432,ToPort=5432,Ipv6Ranges=[{CidrIpv6=::/0}]",
    ),
    must_not_match=(
        "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 5432 --cidr 10.0.0.0/16",
        "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 443 --cidr 0.0.0.0/0",
        "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 0.0.0.0/0 --dry-run",
    ),
)

# A policy document written out that allows every action (`"Action": "*"`, or every IAM action),
# or a trust policy that lets every principal assume the role (`"Principal": "*"`, `"AWS": "*"`).
_EVERY_ACTION = re.compile(r'"Action"\s*:\s*\[?\s*"(\*|iam:\*)"', re.IGNORECASE)
_EVERY_PRINCIPAL = re.compile(r'"(Principal|AWS)"\s*:\s*\[?\s*"\*"', re.IGNORECASE)


def _document_matching(expression: re.Pattern[str]) -> Predicate:
    """`--policy-document` written out (not `file://`) and matching the expression."""

    def written(found: Found) -> Arg | None:
        return next(
            (
                word
                for word in found.reading.values("--policy-document")
                if any(expression.search(value) for value in word.values)
            ),
            None,
        )

    return written


GRANT_ADMIN = pack_rule(
    id="CL105",
    name="aws-grant-admin",
    severity=Severity.HIGH,
    summary="Attaches `AdministratorAccess` or `IAMFullAccess` to a user, role or group (`aws iam attach-role-policy --policy-arn arn:aws:iam::aws:policy/AdministratorAccess`), writes an inline or new default policy that allows every action (`\"Action\": \"*\"` or `iam:*`), or lets every principal assume a role (`\"Principal\": \"*\"` in `update-assume-role-policy`).",
    rationale="The principal can then do anything in the account, or give itself anything (IAMFullAccess, `iam:*`); a role that a workload or another account assumes passes that on, and a trust policy open to `*` lets any AWS account take the role.",
    safer_alternative="Attach a policy scoped to the actions and resources the principal needs, trust named accounts or services only, and let a person grant administrator rights.",
    matches=(
        *(
            command("aws", f"iam attach-{principal}-policy", where=option_value("--policy-arn", "*:policy/administratoraccess", "*:policy/iamfullaccess"))
            for principal in ("user", "role", "group")
        ),
        *(command("aws", f"iam put-{principal}-policy", where=_document_matching(_EVERY_ACTION)) for principal in ("user", "role", "group")),
        command("aws", "iam create-policy-version", requires=("--set-as-default",), where=_document_matching(_EVERY_ACTION)),
        command("aws", "iam update-assume-role-policy", where=_document_matching(_EVERY_PRINCIPAL)),
    ),
    message="grants administrator rights in the AWS account",
    must_match=(
        "aws iam attach-role-policy --role-name ci --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
        "aws iam attach-user-policy --user-name bot --policy-arn arn:aws:iam::aws:policy/IAMFullAccess",
        """aws iam put-user-policy --user-name me --policy-name all --policy-document '{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}'""",
    ),
    must_not_match=(
        "aws iam attach-role-policy --role-name ci --policy-arn arn:aws:iam::aws:policy/ReadOnlyAccess",
        "aws iam list-attached-role-policies --role-name ci",
        """aws iam put-role-policy --role-name ci --policy-name read --policy-document '{"Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}'""",
    ),
)  # fmt: skip

CREATE_CREDENTIALS = pack_rule(
    id="CL106",
    name="aws-create-user-credentials",
    severity=Severity.MEDIUM,
    summary="Creates long-lived credentials for an IAM user: an access key (`aws iam create-access-key`) or a console password (`create-login-profile`).",
    rationale="The secret is printed once, into the agent's output and logs, and stays valid until someone deletes it; rotating a key is routine, so the command runs and the warning says a credential now exists.",
    safer_alternative="Use roles and short-lived credentials (`aws sts assume-role`, SSO); create keys only where a person will store them in a secrets manager.",
    matches=(command("aws", "iam create-access-key"), command("aws", "iam create-login-profile")),
    message="creates long-lived IAM credentials",
    must_match=(
        "aws iam create-access-key --user-name deploy-bot",
        "aws iam create-login-profile --user-name alice --password 'x'",
    ),
    must_not_match=("aws iam list-access-keys --user-name deploy-bot", "aws sts get-caller-identity"),
)

PACK = Pack(
    name="cloud.aws",
    summary="The aws CLI and eksctl: data stores, instances, stacks and clusters, other infrastructure, audit trails; ports, databases and snapshots opened to everyone, administrator rights, role trust and user credentials given out; backups and deletion protection turned off, services scaled to zero, code and secrets replaced, commands run on a fleet, bucket objects set to expire; deploys and restarts in a production profile.",
    default=True,
    reason="Deleted cloud data stores and instances cannot be restored by the agent, access given away is used before it is taken back, and the account may be production.",
    rules=(
        DELETE_DATA,
        DELETE_RESOURCE,
        DISABLE_AUDIT,
        OPEN_TO_THE_INTERNET,
        GRANT_ADMIN,
        CREATE_CREDENTIALS,
        *CHANGE_RULES,
        AWS_PRODUCTION_DEPLOY,
    ),
)
