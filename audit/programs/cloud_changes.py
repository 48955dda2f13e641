"""Cloud CLI operations that change a resource in place rather than delete it: the
settings that protect data (backups, deletion protection), who may reach it, how
many instances serve, what code and secrets it runs with, who may sign in. The
cloud packs judge them (`audit/packs/cloud`); `cloud.py` adds them to aws, gcloud
and az."""

from __future__ import annotations

from ._grammar import Option, flag, valued
from ._tree import Leaf, leaf

# -- aws ------------------------------------------------------------------------------------------

# The aws CLI spells a boolean parameter as a pair: `--deletion-protection` and `--no-deletion-protection`.
_RDS_MODIFY = (
    valued("--db-instance-identifier"), valued("--db-cluster-identifier"), valued("--backup-retention-period"),
    flag("--deletion-protection"), flag("--no-deletion-protection"), flag("--publicly-accessible"),
    flag("--no-publicly-accessible"), flag("--apply-immediately"), flag("--no-apply-immediately"),
)  # fmt: skip
_SECRET_VALUE = (valued("--secret-id"), valued("--secret-string"), valued("--secret-binary"), valued("--description"))
_INLINE_POLICY = (
    valued("--user-name"), valued("--role-name"), valued("--group-name"), valued("--policy-name"),
    valued("--policy-document"),
)  # fmt: skip

AWS_CHANGING_OPERATIONS: dict[str, tuple[Option, ...]] = {
    **{f"{service} {operation}": _RDS_MODIFY for service in ("rds", "docdb", "neptune") for operation in ("modify-db-instance", "modify-db-cluster")},
    "rds create-db-instance": _RDS_MODIFY,
    "rds modify-db-snapshot-attribute": (valued("--db-snapshot-identifier"), valued("--attribute-name"), valued("--values-to-add"), valued("--values-to-remove")),
    "rds modify-db-cluster-snapshot-attribute": (valued("--db-cluster-snapshot-identifier"), valued("--attribute-name"), valued("--values-to-add"), valued("--values-to-remove")),
    "dynamodb update-table": (valued("--table-name"), flag("--deletion-protection-enabled"), flag("--no-deletion-protection-enabled")),
    "dynamodb update-continuous-backups": (valued("--table-name"), valued("--point-in-time-recovery-specification")),
    "ec2 modify-instance-attribute": (
        valued("--instance-id"), flag("--disable-api-termination"), flag("--no-disable-api-termination"),
        valued("--attribute"), valued("--value"),
    ),
    "ec2 modify-snapshot-attribute": (
        valued("--snapshot-id"), valued("--attribute"), valued("--operation-type"), valued("--group-names"),
        valued("--user-ids"), valued("--create-volume-permission"),
    ),
    "ec2 modify-image-attribute": (
        valued("--image-id"), valued("--attribute"), valued("--operation-type"), valued("--user-groups"),
        valued("--user-ids"), valued("--launch-permission"),
    ),
    "cloudformation update-termination-protection": (valued("--stack-name"), flag("--enable-termination-protection"), flag("--no-enable-termination-protection")),
    "lambda add-permission": (
        valued("--function-name"), valued("--statement-id"), valued("--action"), valued("--principal"),
        valued("--source-arn"), valued("--source-account"), valued("--principal-org-id"), valued("--function-url-auth-type"),
    ),
    "lambda update-function-code": (
        valued("--function-name"), valued("--zip-file"), valued("--s3-bucket"), valued("--s3-key"), valued("--image-uri"),
        flag("--publish"), flag("--dry-run"),
    ),
    "lambda put-function-concurrency": (valued("--function-name"), valued("--reserved-concurrent-executions")),
    "autoscaling update-auto-scaling-group": (valued("--auto-scaling-group-name"), valued("--min-size"), valued("--max-size"), valued("--desired-capacity")),
    "autoscaling set-desired-capacity": (valued("--auto-scaling-group-name"), valued("--desired-capacity")),
    "ecs update-service": (valued("--cluster"), valued("--service"), valued("--desired-count"), valued("--task-definition"), flag("--force-new-deployment")),
    "secretsmanager put-secret-value": _SECRET_VALUE,
    "secretsmanager update-secret": _SECRET_VALUE,
    "ssm put-parameter": (valued("--name"), valued("--value"), valued("--type"), flag("--overwrite"), flag("--no-overwrite")),
    "ssm send-command": (valued("--document-name"), valued("--parameters"), valued("--targets"), valued("--instance-ids"), valued("--comment")),
    "organizations leave-organization": (),
    "securityhub disable-security-hub": (),
    "guardduty update-detector": (valued("--detector-id"), flag("--enable"), flag("--no-enable")),
    "iam put-user-policy": _INLINE_POLICY,
    "iam put-role-policy": _INLINE_POLICY,
    "iam put-group-policy": _INLINE_POLICY,
    "iam create-policy-version": (valued("--policy-arn"), valued("--policy-document"), flag("--set-as-default")),
    "iam update-assume-role-policy": (valued("--role-name"), valued("--policy-document")),
    **{f"s3api {operation}": (valued("--bucket"), valued("--lifecycle-configuration"), valued("--expected-bucket-owner")) for operation in ("put-bucket-lifecycle-configuration", "put-bucket-lifecycle")},
}  # fmt: skip

# -- gcloud ---------------------------------------------------------------------------------------

_SQL_SETTINGS = (
    valued("--authorized-networks"), flag("--no-backup"), flag("--backup"), flag("--deletion-protection"),
    flag("--no-deletion-protection"), valued("--activation-policy"), valued("--tier"), flag("--assign-ip"),
    flag("--no-assign-ip"), flag("--clear-authorized-networks"),
)  # fmt: skip
_METADATA = (valued("--metadata"), valued("--metadata-from-file"), valued("--zone"))
_FIREWALL = (
    valued("--source-ranges"), valued("--allow"), valued("--rules"), valued("--network"), valued("--direction"),
    valued("--action"), valued("--target-tags"), valued("--priority"),
)  # fmt: skip

GCLOUD_CHANGING_COMMANDS: tuple[Leaf, ...] = (
    leaf("sql instances patch", *_SQL_SETTINGS, operands=("INSTANCE",)),
    leaf("sql instances create", *_SQL_SETTINGS, valued("--database-version"), valued("--region"), operands=("INSTANCE",)),
    leaf("compute firewall-rules create", *_FIREWALL, operands=("NAME",)),
    leaf("compute firewall-rules update", *_FIREWALL, operands=("NAME",)),
    leaf("compute instances add-metadata", *_METADATA, operands=("INSTANCE",)),
    leaf("compute project-info add-metadata", *_METADATA),
    leaf("compute instances update", valued("--zone"), flag("--deletion-protection"), flag("--no-deletion-protection"), operands=("INSTANCE",)),
    leaf("compute instance-groups managed resize", valued("--size"), valued("--zone"), valued("--region"), operands=("NAME",)),
    leaf("container clusters resize", valued("--num-nodes"), valued("--node-pool"), valued("--zone"), valued("--region"), operands=("NAME",)),
    leaf("iam service-accounts keys create", valued("--iam-account"), valued("--key-file-type"), operands=("OUTPUT_FILE",)),
    leaf("iam service-accounts keys upload", valued("--iam-account"), operands=("PUBLIC_KEY_FILE",)),
    leaf("logging sinks delete", operands=("SINK_NAME",)),
    leaf("secrets versions add", valued("--data-file"), operands=("SECRET",)),
    *(leaf(f"{resource} set-iam-policy", operands=("RESOURCE", "POLICY_FILE")) for resource in ("projects", "organizations", "resource-manager folders")),
)  # fmt: skip

# -- az -------------------------------------------------------------------------------------------------

_FIREWALL_RANGE = (
    valued("--start-ip-address"),
    valued("--end-ip-address"),
    valued("-s", "--server"),
    valued("--rule-name"),
)

AZ_CHANGING_COMMANDS: tuple[Leaf, ...] = (
    leaf("vm user update", valued("-u", "--username"), valued("-p", "--password"), valued("--ssh-key-value")),
    leaf("vm user reset-ssh"),
    leaf("ad sp credential reset", valued("--id"), flag("--append"), valued("--years"), valued("--end-date")),
    leaf("ad app credential reset", valued("--id"), flag("--append"), valued("--years"), valued("--end-date")),
    leaf("ad sp create-for-rbac", valued("--role"), valued("--scopes")),
    leaf("monitor diagnostic-settings delete", valued("--resource")),
    leaf("sql server firewall-rule create", *_FIREWALL_RANGE),
    leaf("postgres flexible-server firewall-rule create", *_FIREWALL_RANGE),
    leaf("mysql flexible-server firewall-rule create", *_FIREWALL_RANGE),
    leaf(
        "network nsg rule create", valued("--nsg-name"), valued("--source-address-prefixes"), valued("--destination-port-ranges"),
        valued("--access"), valued("--direction"), valued("--priority"), valued("--protocol"),
    ),
)  # fmt: skip
