"""Cloud CLI operations that deploy new code or settings to what serves users, or restart it: a new
Cloud Run revision, an App Service deployment, a CloudFormation stack update, a rolling restart. Each is
routine; in a production account, project or subscription the cloud packs warn (`audit/packs/cloud/
production.py`). `cloud.py` adds them to aws, gcloud and az; operations declared elsewhere for another
rule (`ecs update-service`, `container clusters resize`) are only named here."""

from __future__ import annotations

from ._grammar import flag, valued
from ._tree import Leaf, leaf

# -- aws ------------------------------------------------------------------------------------------

AWS_DEPLOYING_OPERATIONS: tuple[Leaf, ...] = (
    leaf("lambda update-function-configuration", valued("--function-name"), valued("--environment"), valued("--handler")),
    leaf("lambda update-alias", valued("--function-name"), valued("--name"), valued("--function-version")),
    leaf("cloudformation deploy", valued("--stack-name"), valued("--template-file"), flag("--no-execute-changeset")),
    leaf("cloudformation update-stack", valued("--stack-name"), valued("--template-body"), valued("--template-url")),
    leaf("cloudformation execute-change-set", valued("--stack-name"), valued("--change-set-name")),
    leaf("elasticbeanstalk update-environment", valued("--environment-name"), valued("--version-label")),
    leaf("autoscaling start-instance-refresh", valued("--auto-scaling-group-name"), valued("--preferences")),
    leaf("ec2 reboot-instances", valued("--instance-ids"), flag("--dry-run")),
    leaf("rds reboot-db-instance", valued("--db-instance-identifier"), flag("--force-failover")),
    leaf("apprunner start-deployment", valued("--service-arn")),
    leaf("deploy create-deployment", valued("--application-name"), valued("--deployment-group-name")),
)  # fmt: skip
AWS_DEPLOYS = (*(item.path for item in AWS_DEPLOYING_OPERATIONS), "ecs update-service")
"""Every aws operation that deploys or restarts, this module's and those declared for other rules."""

# -- gcloud ---------------------------------------------------------------------------------------

_REGION = (valued("--region"), valued("--zone"))
GCLOUD_DEPLOYING_COMMANDS: tuple[Leaf, ...] = (
    leaf("run deploy", *_REGION, valued("--image"), valued("--source"), flag("--no-traffic"), operands=("SERVICE",)),
    leaf("run services update", *_REGION, valued("--image"), valued("--update-env-vars"), operands=("SERVICE",)),
    leaf("run services update-traffic", *_REGION, valued("--to-revisions"), flag("--to-latest"), operands=("SERVICE",)),
    leaf("app deploy", valued("--version"), flag("--no-promote"), flag("--promote"), operands=("DEPLOYABLES...",)),
    leaf("functions deploy", *_REGION, valued("--runtime"), valued("--source"), valued("--entry-point"), operands=("NAME",)),
    leaf("compute instances reset", *_REGION, operands=("INSTANCE...",)),
    *(
        leaf(f"compute instance-groups managed rolling-action {action}", *_REGION, valued("--version"), operands=("NAME",))
        for action in ("restart", "replace", "start-update")
    ),
    leaf("container clusters upgrade", *_REGION, valued("--cluster-version"), flag("--master"), operands=("NAME",)),
    leaf("sql instances restart", operands=("INSTANCE",)),
    leaf("deploy releases promote", *_REGION, valued("--release"), valued("--delivery-pipeline"), valued("--to-target")),
)  # fmt: skip
GCLOUD_DEPLOYS = (
    *(item.path for item in GCLOUD_DEPLOYING_COMMANDS),
    "container clusters resize",
    "sql instances patch",
)
"""Every gcloud command that deploys, restarts or resizes, this module's and those declared for other rules."""

# -- az -------------------------------------------------------------------------------------------

AZ_DEPLOYING_COMMANDS: tuple[Leaf, ...] = (
    *(leaf(f"{app} {verb}", valued("--src-path"), valued("--type"), valued("--slot")) for app in ("webapp", "functionapp") for verb in ("deploy", "restart")),
    *(leaf(f"{app} deployment source config-zip", valued("--src"), valued("--slot")) for app in ("webapp", "functionapp")),
    leaf("webapp up", valued("--runtime"), valued("--sku")),
    leaf("webapp config appsettings set", valued("--settings"), valued("--slot")),
    leaf("containerapp update", valued("--image"), valued("--set-env-vars")),
    leaf("aks upgrade", valued("--kubernetes-version"), flag("--control-plane-only")),
    leaf("aks scale", valued("--node-count"), valued("--nodepool-name")),
    leaf("vm restart", flag("--force")),
    leaf("deployment group create", valued("--template-file"), valued("--parameters"), valued("--mode")),
)  # fmt: skip
AZ_DEPLOYS = tuple(item.path for item in AZ_DEPLOYING_COMMANDS)
"""Every az command that deploys, restarts or resizes."""
