"""cloud.aws, continued: changes in place that take away what protects a resource
(backups, deletion protection), open it to everyone, stop it serving, replace
its code or secrets, or run commands on a fleet. The pack is declared in `aws.py`."""

from __future__ import annotations

from ..._model import Severity
from .._invocation import command, option_value, option_values, pack_rule

_DATABASES = tuple(f"{service} {operation}" for service in ("rds", "docdb", "neptune") for operation in ("modify-db-instance", "modify-db-cluster"))  # fmt: skip

DELETE_BACKUPS = pack_rule(
    id="CL107",
    name="aws-delete-backups",
    severity=Severity.HIGH,
    summary="Turns off a database's automated backups (`--backup-retention-period 0`) or a DynamoDB table's point-in-time recovery.",
    rationale="AWS deletes the automated backups and the restore window the moment they are turned off: the copies that would undo a later mistake or attack are gone, and nothing in the command can bring them back.",
    safer_alternative="Keep the retention period; take a manual snapshot (`aws rds create-db-snapshot`) or an on-demand DynamoDB backup before changing backup settings, and let a person turn backups off.",
    matches=(
        *(command("aws", path, where=option_value("--backup-retention-period", "0")) for path in _DATABASES),
        command("aws", "dynamodb update-continuous-backups", where=option_value("--point-in-time-recovery-specification", "*enabled*false*")),
    ),
    message="turns off automated backups, which deletes them",
    must_match=(
        "aws rds modify-db-instance --db-instance-identifier prod --backup-retention-period 0 --apply-immediately",
        "aws dynamodb update-continuous-backups --table-name orders --point-in-time-recovery-specification PointInTimeRecoveryEnabled=false",
    ),
    must_not_match=(
        "aws rds modify-db-instance --db-instance-identifier prod --backup-retention-period 14",
        "aws dynamodb update-continuous-backups --table-name orders --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true",
    ),
)  # fmt: skip

REMOVE_DELETION_PROTECTION = pack_rule(
    id="CL108",
    name="aws-remove-deletion-protection",
    severity=Severity.MEDIUM,
    summary="Turns off deletion or termination protection: a database's `--no-deletion-protection`, a DynamoDB table's `--no-deletion-protection-enabled`, an instance's `--no-disable-api-termination`, a stack's termination protection.",
    rationale="Nothing is lost yet, but the one setting that stops a mistaken or hostile delete is gone; it is also what a delete of production needs first, so the command runs and the warning says so.",
    safer_alternative="Leave protection on; if the resource really must go, let a person turn it off and delete it through the infrastructure code.",
    matches=(
        *(command("aws", path, requires=("--no-deletion-protection",)) for path in _DATABASES),
        command("aws", "dynamodb update-table", requires=("--no-deletion-protection-enabled",)),
        command("aws", "ec2 modify-instance-attribute", requires=("--no-disable-api-termination",)),
        command("aws", "ec2 modify-instance-attribute", where=(option_value("--attribute", "disableapitermination"), option_value("--value", "false"))),
        command("aws", "cloudformation update-termination-protection", requires=("--no-enable-termination-protection",)),
    ),
    message="turns off deletion protection",
    must_match=(
        "aws dynamodb update-table --table-name prod --no-deletion-protection-enabled",
        "aws ec2 modify-instance-attribute --instance-id i-1 --no-disable-api-termination",
        "aws rds modify-db-cluster --db-cluster-identifier prod --no-deletion-protection --apply-immediately",
    ),
    must_not_match=(
        "aws dynamodb update-table --table-name prod --deletion-protection-enabled",
        "aws ec2 modify-instance-attribute --instance-id i-1 --disable-api-termination",
    ),
)  # fmt: skip

# `Add=[{Group=all}]` (shorthand) and `{"Add":[{"Group":"all"}]}` (JSON): shared with every AWS account.
_ADD_ALL = ("add=*group=all*", '*"add"*"group"*"all"*')

MAKE_PUBLIC = pack_rule(
    id="CL109",
    name="aws-make-public",
    severity=Severity.HIGH,
    summary="Makes a database reachable from the internet (`--publicly-accessible`), a snapshot or machine image restorable by every AWS account, or a Lambda function invocable by anyone (`add-permission --principal '*'` with no source condition).",
    rationale="A public database is found by scanners within minutes; a public snapshot or image hands every account a full copy of the disk or database, secrets included; a function open to `*` runs for anyone at the owner's cost and with its role.",
    safer_alternative="Reach the database through the VPC, a bastion or SSM; share a snapshot or image with named account ids; give `add-permission` a `--source-arn` or `--source-account`.",
    matches=(
        *(command("aws", path, requires=("--publicly-accessible",)) for path in (*_DATABASES, "rds create-db-instance")),
        command("aws", "ec2 modify-snapshot-attribute", where=option_value("--create-volume-permission", *_ADD_ALL)),
        command("aws", "ec2 modify-snapshot-attribute", where=(option_value("--group-names", "all"), option_value("--operation-type", "add"))),
        command("aws", "ec2 modify-image-attribute", where=option_value("--launch-permission", *_ADD_ALL)),
        command("aws", "ec2 modify-image-attribute", where=(option_value("--user-groups", "all"), option_value("--operation-type", "add"))),
        command("aws", "rds modify-db-snapshot-attribute", where=option_value("--values-to-add", "all", '*"all"*')),
        command("aws", "rds modify-db-cluster-snapshot-attribute", where=option_value("--values-to-add", "all", '*"all"*')),
        command("aws", "lambda add-permission", where=option_value("--principal", "[*]"), unless=("--source-arn", "--source-account", "--principal-org-id")),
    ),
    message="opens a database, snapshot, image or function to everyone",
    must_match=(
        "aws rds modify-db-instance --db-instance-identifier prod --publicly-accessible --apply-immediately",
        "aws ec2 modify-snapshot-attribute --snapshot-id snap-1 --attribute createVolumePermission --operation-type add --group-names all",
        "aws rds modify-db-snapshot-attribute --db-snapshot-identifier snap --attribute-name restore --values-to-add all",
        "aws lambda add-permission --function-name api --statement-id x --action lambda:InvokeFunction --principal '*'",
    ),
    must_not_match=(
        "aws rds modify-db-instance --db-instance-identifier prod --no-publicly-accessible",
        "aws ec2 modify-snapshot-attribute --snapshot-id snap-1 --attribute createVolumePermission --operation-type add --user-ids 123456789012",
        "aws lambda add-permission --function-name api --statement-id s3 --action lambda:InvokeFunction --principal s3.amazonaws.com --source-arn arn:aws:s3:::uploads",
    ),
)  # fmt: skip

STOP_SERVICE = pack_rule(
    id="CL110",
    name="aws-scale-to-zero",
    severity=Severity.MEDIUM,
    summary="Scales a service to nothing or stops it: an Auto Scaling group's desired or maximum size 0, an ECS service's `--desired-count 0`, a Lambda function's reserved concurrency 0, instances stopped (`ec2 stop-instances`), a database stopped (`rds stop-db-instance`, `stop-db-cluster`).",
    rationale="Every instance, task or invocation stops at once and the service is down until someone scales it back or starts it again, and an instance's instance-store disks are wiped when it stops; nothing else is deleted, so the command runs and the warning says what stops.",
    safer_alternative="Check the account and the target first (`aws sts get-caller-identity`, `describe-services`); scale down in steps, or change the size through the infrastructure code.",
    matches=(
        command("aws", "autoscaling update-auto-scaling-group", where=option_values({"--desired-capacity": ("0",), "--max-size": ("0",)})),
        command("aws", "autoscaling set-desired-capacity", where=option_value("--desired-capacity", "0")),
        command("aws", "ecs update-service", where=option_value("--desired-count", "0")),
        command("aws", "lambda put-function-concurrency", where=option_value("--reserved-concurrent-executions", "0")),
        command("aws", "ec2 stop-instances", unless=("--dry-run",)),
        command("aws", "rds stop-db-instance"),
        command("aws", "rds stop-db-cluster"),
    ),
    message="scales a service to zero or stops it",
    must_match=(
        "aws autoscaling update-auto-scaling-group --auto-scaling-group-name prod --desired-capacity 0 --min-size 0",
        "aws ecs update-service --cluster prod --service api --desired-count 0",
        "aws ec2 stop-instances --instance-ids i-0abc123def4567890",
    ),
    must_not_match=(
        "aws ecs update-service --cluster prod --service api --desired-count 3",
        "aws autoscaling update-auto-scaling-group --auto-scaling-group-name prod --min-size 0 --desired-capacity 2",
        "aws ec2 stop-instances --instance-ids i-0abc123def4567890 --dry-run",
    ),
)  # fmt: skip

REPLACE_CODE_OR_SECRET = pack_rule(
    id="CL111",
    name="aws-replace-code-or-secret",
    severity=Severity.MEDIUM,
    summary="Replaces what a service runs or reads: a Lambda function's code (`update-function-code`), a secret's value (`secretsmanager put-secret-value`, `update-secret --secret-string`) or a parameter's (`ssm put-parameter --overwrite`).",
    rationale="The new code or value takes effect on the next invocation or read, in production if that is the account; the previous secret version is kept for a while, but whatever used the old value breaks. Deploying and rotating are routine, so the command runs and the warning says what changed.",
    safer_alternative="Deploy through the pipeline or infrastructure code (`sam deploy`, `cdk deploy`), publish a version and move an alias, and rotate secrets with Secrets Manager's rotation.",
    matches=(
        command("aws", "lambda update-function-code", unless=("--dry-run",)),
        command("aws", "secretsmanager put-secret-value"),
        command("aws", "secretsmanager update-secret", any_of=("--secret-string", "--secret-binary")),
        command("aws", "ssm put-parameter", requires=("--overwrite",)),
    ),
    message="replaces a function's code or a secret's value",
    must_match=(
        "aws lambda update-function-code --function-name prod --zip-file fileb://x.zip",
        "aws secretsmanager put-secret-value --secret-id prod/db --secret-string x",
        "aws ssm put-parameter --name /prod/db/url --value x --type SecureString --overwrite",
    ),
    must_not_match=(
        "aws secretsmanager update-secret --secret-id prod/db --description 'database password'",
        "aws ssm put-parameter --name /dev/flag --value on --type String",
    ),
)  # fmt: skip

RUN_ON_FLEET = pack_rule(
    id="CL112",
    name="aws-run-command-on-instances",
    severity=Severity.MEDIUM,
    summary="Runs shell commands on instances through Systems Manager (`aws ssm send-command --document-name AWS-RunShellScript` or `AWS-RunPowerShellScript`).",
    rationale="The commands run as root on every instance the targets select, possibly a whole production fleet at once; the engine does not audit the commands inside `--parameters`, so the warning asks for a look.",
    safer_alternative="Target one instance by id first, and run fleet changes through a reviewed SSM document or the deployment pipeline.",
    matches=(command("aws", "ssm send-command", where=option_value("--document-name", "aws-runshellscript", "aws-runpowershellscript")),),
    message="runs shell commands on instances",
    must_match=(
        "aws ssm send-command --document-name AWS-RunShellScript --parameters commands='uptime' --targets Key=tag:env,Values=prod",
        "aws ssm send-command --instance-ids i-1 --document-name AWS-RunPowerShellScript --parameters commands=Get-Service",
    ),
    must_not_match=(
        "aws ssm send-command --document-name AWS-ApplyPatchBaseline --instance-ids i-1",
        "aws ssm put-parameter --name /dev/flag --value on --type String",
    ),
)  # fmt: skip

CHANGE_TRUST = pack_rule(
    id="CL113",
    name="aws-change-role-trust",
    severity=Severity.MEDIUM,
    summary="Replaces who may assume an IAM role (`aws iam update-assume-role-policy`); a trust document written out that lets any principal in is CL105's.",
    rationale="The trust policy decides which accounts, services and users can take on the role's rights: a new document can hand them to another account, and from a file the engine cannot tell which.",
    safer_alternative="Change trust through the infrastructure code, naming each account or service, and review the document with IAM Access Analyzer first.",
    matches=(command("aws", "iam update-assume-role-policy"),),
    message="replaces who may assume an IAM role",
    must_match=(
        "aws iam update-assume-role-policy --role-name admin --policy-document file://trust-everyone.json",
        "aws --profile prod iam update-assume-role-policy --policy-document file://trust.json --role-name deploy",
    ),
    must_not_match=("aws iam get-role --role-name admin", "aws iam list-roles"),
)  # fmt: skip

# A lifecycle rule that deletes: current objects (`Expiration`) or older versions (`NoncurrentVersionExpiration`).
_EXPIRES = option_value("--lifecycle-configuration", "*expiration*")

EXPIRE_OBJECTS = pack_rule(
    id="CL118",
    name="aws-s3-lifecycle-expiration",
    severity=Severity.MEDIUM,
    summary="Sets a bucket's lifecycle configuration to one whose rules expire objects or their older versions (`aws s3api put-bucket-lifecycle-configuration` with `Expiration`), replacing the rules it had.",
    rationale="S3 deletes what the rule selects once it reaches the age given, a day later at the earliest and with no prompt: an empty filter and `Days: 1` empties the bucket tomorrow. Expiring logs is routine, so the command runs and the warning says what the rule deletes; a configuration read from a file is not seen.",
    safer_alternative="Change lifecycle rules through the infrastructure code; scope each expiration with a prefix or tag filter, and check the current rules first (`aws s3api get-bucket-lifecycle-configuration`).",
    matches=tuple(
        command("aws", f"s3api {operation}", where=_EXPIRES)
        for operation in ("put-bucket-lifecycle-configuration", "put-bucket-lifecycle")
    ),
    message="sets lifecycle rules that delete the bucket's objects",
    must_match=(
        """aws s3api put-bucket-lifecycle-configuration --bucket prod --lifecycle-configuration '{"Rules":[{"ID":"x","Status":"Enabled","Filter":{},"Expiration":{"Days":1}}]}'""",
        "aws s3api put-bucket-lifecycle --bucket b --lifecycle-configuration 'Rules=[{Status=Enabled,Prefix=,Expiration={Days=1}}]'",
    ),
    must_not_match=(
        "aws s3api put-bucket-lifecycle-configuration --bucket logs --lifecycle-configuration file://lifecycle.json",
        "aws s3api get-bucket-lifecycle-configuration --bucket prod",
    ),
)

CHANGE_RULES = (
    DELETE_BACKUPS,
    REMOVE_DELETION_PROTECTION,
    MAKE_PUBLIC,
    STOP_SERVICE,
    REPLACE_CODE_OR_SECRET,
    RUN_ON_FLEET,
    CHANGE_TRUST,
    EXPIRE_OBJECTS,
)
