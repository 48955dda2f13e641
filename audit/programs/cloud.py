"""Cloud CLIs: aws (and eksctl), gcloud (and bq), az; and the object-storage
clients (gsutil, rclone, mc, s3cmd, azcopy).

The cloud CLIs have hundreds of operations; these declare the ones the packs
judge (deletions and their safety options), and the read-only commands the
benign corpus shows, as subcommand paths.
"""

from __future__ import annotations

from ._grammar import GO_FLAGS, Option, Syntax, attached, flag, valued
from ._program import HelpForms, Program
from ._tree import Leaf, leaf, tree
from .cloud_changes import AWS_CHANGING_OPERATIONS, AZ_CHANGING_COMMANDS, GCLOUD_CHANGING_COMMANDS
from .cloud_deploys import AWS_DEPLOYING_OPERATIONS, AZ_DEPLOYING_COMMANDS, GCLOUD_DEPLOYING_COMMANDS

# argparse without abbreviations, options anywhere (aws, gcloud, az).
_ARGPARSE = Syntax()
# argparse prints the help for `-h` or `--help` among the options, and exits (gcloud, az).
_ARGPARSE_HELP = HelpForms(("-h", "--help"))

# -- aws ------------------------------------------------------------------------------------------

_AWS_OPERATION_FLAGS = (
    flag("--dry-run"),
    flag("--no-dry-run"),
    flag("--force"),
    flag("--skip-final-snapshot"),
    flag("--no-skip-final-snapshot"),
    flag("--delete-automated-backups"),
    flag("--force-delete-without-recovery"),
    flag("--force-delete"),
    valued("--recovery-window-in-days"),
    valued("--pending-window-in-days"),
    valued("--cli-input-json"),
)

# The operations, by service, that delete or disable something (and a few that only read).
AWS_OPERATIONS: dict[str, tuple[str, ...]] = {
    "ec2": ("terminate-instances", "delete-volume", "delete-snapshot", "deregister-image", "delete-vpc",
            "delete-security-group", "delete-key-pair", "describe-instances", "stop-instances"),
    "rds": ("delete-db-instance", "delete-db-cluster", "delete-db-snapshot", "delete-db-cluster-snapshot",
            "describe-db-instances", "stop-db-instance", "stop-db-cluster"),
    "docdb": ("delete-db-cluster", "delete-db-instance"),
    "neptune": ("delete-db-cluster", "delete-db-instance"),
    "dynamodb": ("delete-table", "delete-backup", "list-tables"),
    "elasticache": ("delete-cache-cluster", "delete-replication-group", "delete-serverless-cache"),
    "efs": ("delete-file-system",),
    "fsx": ("delete-file-system",),
    "redshift": ("delete-cluster",),
    "opensearch": ("delete-domain",),
    "es": ("delete-elasticsearch-domain",),
    "backup": ("delete-backup-vault", "delete-recovery-point"),
    "glacier": ("delete-vault", "delete-archive"),
    "logs": ("delete-log-group", "tail"),
    "kinesis": ("delete-stream",),
    "sqs": ("delete-queue", "purge-queue"),
    "sns": ("delete-topic",),
    "eks": ("delete-cluster", "delete-nodegroup", "update-kubeconfig"),
    "ecs": ("delete-cluster", "delete-service"),
    "ecr": ("delete-repository", "batch-delete-image"),
    "cloudformation": ("delete-stack", "describe-stacks"),
    "route53": ("delete-hosted-zone",),
    "lambda": ("delete-function",),
    "iam": ("delete-user", "delete-role", "delete-policy", "delete-access-key"),
    "elbv2": ("delete-load-balancer",),
    "elb": ("delete-load-balancer",),
    "apigateway": ("delete-rest-api",),
    "cloudfront": ("delete-distribution",),
    "autoscaling": ("delete-auto-scaling-group",),
    "organizations": ("close-account", "delete-organization"),
    "cloudtrail": ("delete-trail", "stop-logging"),
    "guardduty": ("delete-detector",),
    "configservice": ("stop-configuration-recorder", "delete-configuration-recorder"),
    "secretsmanager": ("delete-secret", "get-secret-value"),
    "kms": ("schedule-key-deletion", "disable-key"),
    "s3api": ("delete-bucket", "delete-object", "delete-objects", "list-objects-v2"),
    "sts": ("get-caller-identity",),
}  # fmt: skip

# The operations that give access away, with the options the packs read (who, what, from where).
_S3_GRANTS = (
    valued("--bucket"),
    valued("--key"),
    valued("--acl"),
    valued("--grant-read"),
    valued("--grant-read-acp"),
    valued("--grant-write"),
    valued("--grant-write-acp"),
    valued("--grant-full-control"),
    valued("--access-control-policy"),
)
_PUBLIC_ACCESS_BLOCK = (valued("--bucket"), valued("--account-id"), valued("--public-access-block-configuration"))
_IAM_PRINCIPAL = (valued("--user-name"), valued("--role-name"), valued("--group-name"), valued("--policy-arn"))
AWS_GRANTING_OPERATIONS: dict[str, tuple[Option, ...]] = {
    "s3api put-bucket-acl": _S3_GRANTS,
    "s3api put-object-acl": _S3_GRANTS,
    "s3api get-bucket-acl": _S3_GRANTS,
    "s3api put-public-access-block": _PUBLIC_ACCESS_BLOCK,
    "s3api delete-public-access-block": _PUBLIC_ACCESS_BLOCK,
    "s3control put-public-access-block": _PUBLIC_ACCESS_BLOCK,
    "s3control delete-public-access-block": _PUBLIC_ACCESS_BLOCK,
    "ec2 authorize-security-group-ingress": (
        valued("--group-id"), valued("--group-name"), valued("--protocol"), valued("--port"), valued("--cidr"),
        valued("--source-group"), valued("--group-owner"), valued("--ip-permissions"), flag("--dry-run"),
    ),
    **{f"iam attach-{principal}-policy": _IAM_PRINCIPAL for principal in ("user", "role", "group")},
    "iam create-access-key": _IAM_PRINCIPAL,
    "iam create-login-profile": (*_IAM_PRINCIPAL, valued("--password"), flag("--password-reset-required")),
}  # fmt: skip

_S3_FILTERS = (valued("--include"), valued("--exclude"))
# The options of s3's transfers (cp, mv, sync): read as options, their values are not taken for the
# sources or the destination (`aws s3 cp SRC s3://b/k --acl public-read`).
_S3_TRANSFERS = (
    *_S3_FILTERS, *(valued(name) for name in (
        "--acl", "--grants", "--storage-class", "--sse", "--sse-kms-key-id", "--sse-c", "--sse-c-key",
        "--sse-c-copy-source", "--sse-c-copy-source-key", "--content-type", "--cache-control", "--content-disposition",
        "--content-encoding", "--content-language", "--expires", "--metadata", "--metadata-directive",
        "--website-redirect", "--source-region", "--page-size", "--expected-size", "--checksum-algorithm",
        "--checksum-mode", "--request-payer",
    )),
    *(flag(name) for name in (
        "--follow-symlinks", "--no-follow-symlinks", "--no-guess-mime-type", "--only-show-errors", "--no-progress",
        "--quiet", "--exact-timestamps", "--size-only", "--force-glacier-transfer", "--ignore-glacier-warnings",
        "--copy-props",
    )),
)  # fmt: skip

AWS = Program(
    ("aws",),
    options=(
        valued("--profile"),
        valued("--region"),
        valued("--output"),
        valued("--endpoint-url"),
        valued("--query"),
        valued("--color"),
        valued("--ca-bundle"),
        valued("--cli-read-timeout"),
        valued("--cli-connect-timeout"),
        valued("--cli-binary-format"),
        flag("--debug"),
        flag("--no-verify-ssl"),
        flag("--no-paginate"),
        flag("--no-sign-request"),
        flag("--no-cli-pager"),
    ),
    global_options_anywhere=True,
    # aws takes no `--help`: an operation's help is the word `help` after it.
    help_forms=HelpForms(word="help"),
    syntax=_ARGPARSE,
    subcommands=tree(
        leaf("s3 rm", flag("--recursive"), flag("--dryrun"), flag("--quiet"), *_S3_FILTERS, operands=("PATH",)),
        leaf("s3 rb", flag("--force"), operands=("BUCKET",)),
        # A shell command run in a task's container (through SSM).
        leaf("ecs execute-command", valued("--cluster"), valued("--task"), valued("--container"), valued("--command"), flag("--interactive"), flag("--non-interactive")),
        leaf("s3 sync", flag("--delete"), flag("--dryrun"), *_S3_TRANSFERS, operands=("SOURCE", "DEST")),
        leaf("s3 cp|mv", flag("--recursive"), flag("--dryrun"), *_S3_TRANSFERS, operands=("SOURCE", "DEST")),
        leaf("s3 ls", flag("--recursive"), flag("--human-readable"), flag("--summarize"), operands=("PATH",)),
        *(leaf(f"{service} {operation}", *_AWS_OPERATION_FLAGS) for service, operations in AWS_OPERATIONS.items() for operation in operations),
        *(leaf(path, *options) for path, options in AWS_GRANTING_OPERATIONS.items()),
        *(leaf(path, *options) for path, options in AWS_CHANGING_OPERATIONS.items()),
        *AWS_DEPLOYING_OPERATIONS,
    ),
)  # fmt: skip

EKSCTL = Program(
    ("eksctl",),
    syntax=_ARGPARSE,
    options=(valued("--profile"), valued("-r", "--region")),
    global_options_anywhere=True,
    subcommands=tree(
        leaf("delete cluster", valued("-n", "--name"), valued("-f", "--config-file"), flag("-w", "--wait"), flag("--force"), flag("--disable-nodegroup-eviction")),
        leaf("delete nodegroup", valued("-n", "--name"), valued("--cluster"), flag("--approve"), flag("--drain")),
        leaf("get cluster|clusters"),
    ),
)  # fmt: skip

# -- gcloud -----------------------------------------------------------------------------------------

_GCLOUD_FLAGS = (flag("-q", "--quiet"), flag("--async"))

# Deletions the packs judge (gcloud's GROUP... COMMAND paths), and reads the corpus shows.
GCLOUD_PATHS = (
    "projects delete", "compute instances delete", "compute disks delete", "compute snapshots delete",
    "compute images delete", "compute instance-groups managed delete", "compute networks delete",
    "sql instances delete", "sql databases delete", "container clusters delete", "container node-pools delete",
    "spanner instances delete", "spanner databases delete", "bigtable instances delete", "firestore databases delete",
    "filestore instances delete", "redis instances delete", "alloydb clusters delete",
    "deployment-manager deployments delete", "pubsub topics delete", "pubsub subscriptions delete",
    "functions delete", "run services delete", "app services delete", "iam service-accounts delete",
    "iam roles delete", "dns managed-zones delete", "logging buckets delete", "artifacts repositories delete",
    "secrets delete", "kms keys versions destroy", "compute instances list", "config list", "auth list",
    "projects list", "compute instances stop", "compute instances suspend",
)  # fmt: skip
_GCLOUD_STORAGE = (
    leaf("storage rm", flag("-r", "-R", "--recursive"), flag("-a", "--all-versions"), operands=("URL...",)),
    leaf("storage buckets delete", operands=("URL...",)),
    leaf("storage rsync", flag("-r", "-R", "--recursive"), flag("--delete-unmatched-destination-objects"), flag("--dry-run"), operands=("SOURCE", "DEST")),
    leaf("storage cp", flag("-r", "-R", "--recursive"), operands=("SOURCE...", "DEST")),
    leaf("storage ls", flag("-r", "-R", "--recursive"), flag("-l", "--long"), operands=("URL...",)),
)  # fmt: skip


# The resources whose IAM policy `gcloud RESOURCE add-iam-policy-binding` grants a role on.
GCLOUD_IAM_RESOURCES = (
    "projects", "organizations", "resource-manager folders", "storage buckets", "functions", "run services",
    "pubsub topics", "pubsub subscriptions", "iam service-accounts", "secrets", "artifacts repositories",
    "kms keys", "kms keyrings", "spanner instances", "spanner databases", "compute instances",
)  # fmt: skip
_GCLOUD_IAM = tuple(
    leaf(
        f"{resource} {verb}",
        valued("--member"), valued("--role"), valued("--condition"), valued("--region"), valued("--location"),
        valued("--keyring"), valued("--instance"), valued("--zone"), flag("--all"), operands=("RESOURCE",),
    )
    for resource in GCLOUD_IAM_RESOURCES
    for verb in ("add-iam-policy-binding", "get-iam-policy")
)  # fmt: skip
# `gcloud compute ssh INSTANCE --command CMD`: the analysis audits CMD where it runs.
_GCLOUD_SSH = leaf(
    "compute ssh",
    valued("--command"), valued("--zone"), valued("--ssh-flag"), valued("--ssh-key-file"),
    valued("--strict-host-key-checking"), valued("--container"), valued("--ssh-key-expiration"),
    valued("--ssh-key-expire-after"), flag("--tunnel-through-iap"), flag("--internal-ip"), flag("--dry-run"),
    flag("--plain"), flag("--force-key-file-overwrite"), flag("--troubleshoot"),
    operands=("INSTANCE", "SSH_ARGS..."),
)  # fmt: skip


def _gcloud_tree(track: str) -> tuple[Leaf, ...]:
    """The declared paths under one release track (`beta ` runs the same commands as ``)."""
    plain = tuple(leaf(f"{track}{path}", *_GCLOUD_FLAGS) for path in GCLOUD_PATHS)
    with_options = tuple(
        Leaf(f"{track}{item.path}", (*_GCLOUD_FLAGS, *item.options), item.operands)
        for item in (*_GCLOUD_STORAGE, _GCLOUD_SSH, *_GCLOUD_IAM, *GCLOUD_CHANGING_COMMANDS, *GCLOUD_DEPLOYING_COMMANDS)
    )
    return (*plain, *with_options)


GCLOUD = Program(
    ("gcloud",),
    help_forms=_ARGPARSE_HELP,
    syntax=_ARGPARSE,
    options=(
        valued("--project"),
        valued("--account"),
        valued("--configuration"),
        valued("--format"),
        valued("--verbosity"),
        valued("--impersonate-service-account"),
        valued("--billing-project"),
        valued("--flags-file"),
        flag("--log-http"),
    ),
    global_options_anywhere=True,
    # The release tracks run the same commands: `gcloud beta sql instances delete`.
    subcommands=tree(*(item for track in ("", "alpha ", "beta ") for item in _gcloud_tree(track))),
)

BQ = Program(
    ("bq",),
    syntax=GO_FLAGS,
    options=(valued("--project_id"), valued("--location"), valued("--dataset_id"), valued("--format"), flag("--quiet", "-q")),
    subcommands=tree(
        leaf("rm", flag("-f", "--force"), flag("-r", "--recursive"), flag("-d", "--dataset"), flag("-t", "--table"), flag("-m", "--model"), operands=("ID",)),
        leaf("ls", valued("-n", "--max_results"), operands=("ID",)),
        leaf(
            "query", flag("--use_legacy_sql"), flag("--nouse_legacy_sql"), flag("--dry_run"), valued("--destination_table"),
            valued("--parameter"), valued("-n", "--max_rows"), valued("--label"), valued("--maximum_bytes_billed"),
            valued("--job_id"), operands=("SQL",),
        ),
    ),
)  # fmt: skip

# `firebase COMMAND`: commands are single words with colons (`firestore:delete`).
FIREBASE = Program(
    ("firebase",),
    syntax=_ARGPARSE,
    options=(valued("-P", "--project"), valued("--account"), flag("-f", "--force"), flag("--non-interactive"), flag("--debug"), flag("-j", "--json")),
    global_options_anywhere=True,
    help_forms=_ARGPARSE_HELP,
    subcommands=tree(
        leaf("firestore:delete", flag("--all-collections"), flag("-r", "--recursive"), flag("--shallow"), flag("-y", "--yes"), valued("--database"), operands=("PATH",)),
        leaf("firestore:databases:delete", operands=("DATABASE",)),
        leaf("database:remove", valued("--instance"), flag("--disable-triggers"), operands=("PATH",)),
        leaf("projects:list"),
        # Hosting and functions: the platform.firebase pack's.
        leaf("hosting:disable", valued("-s", "--site")), leaf("hosting:sites:delete", operands=("SITE",)),
        leaf("hosting:channel:delete", valued("--site"), operands=("CHANNEL",)), leaf("functions:delete", valued("--region"), operands=("FUNCTION...",)),
        leaf("deploy", valued("--only"), valued("--except"), valued("-m", "--message")),
    ),
)  # fmt: skip

# -- az -----------------------------------------------------------------------------------------------

_AZ_FLAGS = (flag("-y", "--yes"), flag("--no-wait"), valued("-g", "--resource-group"), valued("-n", "--name"))

AZ_PATHS = (
    "group delete", "vm delete", "vmss delete", "disk delete", "snapshot delete", "sql db delete", "sql server delete",
    "cosmosdb delete", "cosmosdb sql database delete", "aks delete", "postgres flexible-server delete",
    "mysql flexible-server delete", "redis delete", "acr delete", "acr repository delete", "webapp delete",
    "functionapp delete", "network vnet delete", "keyvault delete", "keyvault purge", "keyvault secret delete",
    "keyvault secret purge", "storage account delete", "storage container delete", "storage blob delete",
    "storage blob delete-batch", "storage blob sync", "storage share delete", "group list", "account show", "vm list",
    "vm stop", "vm deallocate", "vmss stop", "vmss deallocate",
)  # fmt: skip

# Where an upload goes: the account (`ACCOUNT.blob.core.windows.net`), or a connection string or SAS URL.
_AZ_ACCOUNT = (valued("--account-name"), valued("--connection-string"), valued("--account-key"), valued("--sas-token"), valued("--auth-mode"))  # fmt: skip
_AZ_STORAGE_OPTIONS = (valued("-c", "--container-name"), valued("-s", "--source"), attached("--delete-destination"), flag("--dryrun"))  # fmt: skip

AZ = Program(
    ("az",),
    help_forms=_ARGPARSE_HELP,
    syntax=_ARGPARSE,
    options=(valued("--subscription"), valued("-o", "--output"), valued("--query"), flag("--debug"), flag("--verbose"), flag("--only-show-errors")),
    global_options_anywhere=True,
    subcommands=tree(
        *(
            leaf(path, *_AZ_FLAGS, *(_AZ_STORAGE_OPTIONS if path.startswith("storage ") else ()), valued("--vault-name"))
            for path in AZ_PATHS
        ),
        leaf("role assignment create", valued("--role"), valued("--assignee"), valued("--assignee-object-id"), valued("--assignee-principal-type"), valued("--scope"), valued("-g", "--resource-group")),
        leaf("role assignment list", valued("--assignee"), valued("--scope"), flag("--all")),
        *(leaf(f"storage container {verb}", *_AZ_FLAGS, valued("--public-access"), valued("--account-name"), valued("--auth-mode")) for verb in ("set-permission", "create")),
        leaf("storage account update", *_AZ_FLAGS, valued("--allow-blob-public-access"), valued("--public-network-access")),
        *(Leaf(item.path, (*_AZ_FLAGS, *item.options), item.operands) for item in (*AZ_CHANGING_COMMANDS, *AZ_DEPLOYING_COMMANDS)),
        # `--scripts` is the shell script a Linux VM runs (RunShellScript).
        leaf("vm run-command invoke", *_AZ_FLAGS, valued("--command-id"), valued("--scripts"), valued("--parameters"), valued("--ids")),
        leaf("storage blob upload", valued("-f", "--file"), valued("-c", "--container-name"), valued("-n", "--name"), *_AZ_ACCOUNT, flag("--overwrite")),
        leaf("storage blob upload-batch", valued("-s", "--source"), valued("-d", "--destination"), valued("--pattern"), *_AZ_ACCOUNT, flag("--overwrite")),
    ),
)  # fmt: skip

# -- object storage clients ---------------------------------------------------------------------------------

GSUTIL = Program(
    ("gsutil",),
    syntax=Syntax(permute=False),
    options=(flag("-m"), valued("-o"), valued("-h"), flag("-q"), flag("-D"), valued("-u")),
    subcommands=tree(
        leaf("rm|del|delete|remove", flag("-r", "-R"), flag("-a"), flag("-f"), flag("-I"), operands=("URL...",)),
        leaf("rb", flag("-f"), operands=("URL...",)),
        leaf("rsync", flag("-d"), flag("-r", "-R"), flag("-n"), flag("-c"), valued("-x"), valued("-j"), operands=("SOURCE", "DEST")),
        leaf("cp", flag("-r", "-R"), flag("-n"), operands=("SOURCE...", "DEST")),
        leaf("ls", flag("-r", "-R"), flag("-l"), flag("-L"), flag("-a"), flag("-b"), operands=("URL...",)),
        # Access: `iam ch MEMBER:ROLE... URL` (`-d MEMBER` takes one away), `acl|defacl ch -u|-g ENTITY:PERM`,
        # `acl|defacl set ACL URL...`.
        leaf("iam ch", flag("-R", "-r"), flag("-f"), valued("-d"), valued("-e"), operands=("BINDING...",)),
        leaf("iam get", operands=("URL",)),
        *(leaf(f"{acl} ch", flag("-R", "-r"), flag("-f"), valued("-u"), valued("-g"), valued("-p"), valued("-d"), operands=("URL...",)) for acl in ("acl", "defacl")),
        *(leaf(f"{acl} set", flag("-R", "-r"), flag("-a"), flag("-f"), operands=("ACL", "URL...")) for acl in ("acl", "defacl")),
    ),
)  # fmt: skip

_RCLONE_SAFE = (flag("-n", "--dry-run"), flag("-i", "--interactive"))
RCLONE = Program(
    ("rclone",),
    syntax=_ARGPARSE,
    options=(
        valued("--config"), valued("--transfers"), valued("--checkers"), valued("--include"), valued("--exclude"),
        valued("--filter"), valued("--min-age"), valued("--max-age"), valued("--log-level"), valued("--log-file"),
        flag("-v", "--verbose"), flag("-P", "--progress"), *_RCLONE_SAFE,
    ),
    global_options_anywhere=True,
    subcommands=tree(
        leaf("purge", operands=("REMOTE",)),
        leaf("delete", flag("--rmdirs"), operands=("REMOTE",)),
        leaf("deletefile", operands=("REMOTE",)),
        leaf("sync", operands=("SOURCE", "DEST")),
        leaf("copy", operands=("SOURCE", "DEST")),
        leaf("ls|lsd|lsl|lsf", operands=("REMOTE",)),
    ),
)  # fmt: skip

MC = Program(
    ("mc",),
    syntax=_ARGPARSE,
    options=(valued("-C", "--config-dir"), flag("--json"), flag("-q", "--quiet"), flag("--insecure")),
    global_options_anywhere=True,
    subcommands=tree(
        leaf("rm", flag("-r", "--recursive"), flag("--force"), flag("--incomplete"), flag("--versions"), flag("--dangerous"), flag("--dry-run"), valued("--older-than"), operands=("TARGET...",)),
        leaf("rb", flag("--force"), flag("--dangerous"), operands=("TARGET...",)),
        leaf("mirror", flag("--remove"), flag("--overwrite"), flag("--dry-run"), operands=("SOURCE", "TARGET")),
        leaf("ls", flag("-r", "--recursive"), operands=("TARGET",)),
    ),
)  # fmt: skip

S3CMD = Program(
    ("s3cmd",),
    syntax=_ARGPARSE,
    options=(valued("-c", "--config"), flag("-n", "--dry-run"), flag("-r", "--recursive"), flag("-f", "--force"), flag("--delete-removed")),
    global_options_anywhere=True,
    subcommands=tree(
        leaf("del|rm", operands=("URL...",)),
        leaf("rb", operands=("URL",)),
        leaf("sync", operands=("SOURCE", "DEST")),
        leaf("put", operands=("SOURCE...", "DEST")),
        leaf("ls|la", operands=("URL",)),
    ),
)  # fmt: skip

AZCOPY = Program(
    ("azcopy",),
    syntax=_ARGPARSE,
    options=(valued("--log-level"),),
    global_options_anywhere=True,
    subcommands=tree(
        leaf("remove|rm", flag("--recursive"), attached("--dry-run"), operands=("URL",)),
        leaf("sync", attached("--delete-destination"), flag("--recursive"), attached("--dry-run"), operands=("SOURCE", "DEST")),
        leaf("list", operands=("URL",)),
        leaf("copy|cp", flag("--recursive"), operands=("SOURCE", "DEST")),
    ),
)  # fmt: skip

CLOUD_PROGRAMS: tuple[Program, ...] = (AWS, EKSCTL, GCLOUD, BQ, FIREBASE, AZ, GSUTIL, RCLONE, MC, S3CMD, AZCOPY)
