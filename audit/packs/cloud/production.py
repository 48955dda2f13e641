"""cloud.aws, cloud.gcp and cloud.azure, continued: deploys and restarts of what serves users, in an account,
project or subscription named for production, whether the command names it (`--profile prod`, `--project
acme-prod`, `--subscription Production`) or its environment or an earlier command chose it (`AWS_PROFILE=prod`,
`gcloud config set project acme-prod && ...`, `az account set -s prod && ...`). The packs are declared in
`aws.py`, `gcp.py` and `azure.py`."""

from __future__ import annotations

from ..._model import Severity
from ...programs.cloud_deploys import AWS_DEPLOYS, AZ_DEPLOYS, GCLOUD_DEPLOYS
from ...programs.selections import AZURE_SUBSCRIPTION, GCLOUD_CONFIGURATION, GCLOUD_PROJECT
from .._invocation import command, pack_rule
from .._production import Target, in_production

_RATIONALE = (
    "Production serves users: a new revision, template or setting goes live for all of them at once, and a "
    "restart drops what is in flight. Deploying is routine for the people who own it, so this warns; the same "
    "command in a development or staging {} passes."
)
_SAFER = "Deploy production through the pipeline; rehearse in staging; check where the command acts first ({})."

# aws reads the profile from `--profile`, else AWS_PROFILE, else AWS_DEFAULT_PROFILE.
_AWS_PRODUCTION = in_production(Target(frozenset({"--profile"}), ("AWS_PROFILE", "AWS_DEFAULT_PROFILE")))

AWS_PRODUCTION_DEPLOY = pack_rule(
    id="CL127",
    name="aws-production-deploy",
    severity=Severity.MEDIUM,
    summary=(
        "Deploys or restarts in an AWS profile named for production (`--profile prod`, `AWS_PROFILE=prod`, "
        "exported earlier): `cloudformation deploy|update-stack`, `ecs update-service`, `lambda "
        "update-function-configuration|update-alias`, `elasticbeanstalk update-environment`, instance and "
        "database reboots, instance refreshes, CodeDeploy and App Runner deployments."
    ),
    rationale=_RATIONALE.format("profile"),
    safer_alternative=_SAFER.format("`aws sts get-caller-identity`"),
    matches=tuple(command("aws", path, where=_AWS_PRODUCTION) for path in AWS_DEPLOYS),
    message="deploys or restarts in a production AWS profile",
    must_match=(
        "AWS_PROFILE=prod aws cloudformation deploy --stack-name api --template-file t.yml",
        "aws --profile production ecs update-service --cluster web --service api --force-new-deployment",
        "export AWS_PROFILE=prod; aws lambda update-function-configuration --function-name api --environment Variables={A=1}",
    ),
    must_not_match=(
        "AWS_PROFILE=staging aws cloudformation deploy --stack-name api --template-file t.yml",
        "AWS_PROFILE=prod aws cloudformation describe-stacks --stack-name api",
        "AWS_PROFILE=prod aws --profile dev ecs update-service --cluster web --service api",
    ),
)

# gcloud reads the project from `--project`, else CLOUDSDK_CORE_PROJECT, else the active configuration's
# (`gcloud config set project`); the configuration from `--configuration`, else CLOUDSDK_ACTIVE_CONFIG_NAME.
_GCP_PRODUCTION = in_production(
    Target(frozenset({"--project"}), ("CLOUDSDK_CORE_PROJECT",), GCLOUD_PROJECT),
    Target(frozenset({"--project", "--configuration"}), ("CLOUDSDK_ACTIVE_CONFIG_NAME",), GCLOUD_CONFIGURATION),
)

GCP_PRODUCTION_DEPLOY = pack_rule(
    id="CL128",
    name="gcp-production-deploy",
    severity=Severity.MEDIUM,
    summary=(
        "Deploys, restarts or resizes in a Google Cloud project or configuration named for production "
        "(`--project acme-prod`, `CLOUDSDK_CORE_PROJECT`, `gcloud config set project` earlier): `run deploy`, "
        "`run services update|update-traffic`, `app deploy`, `functions deploy`, rolling restarts, instance "
        "resets, cluster upgrades and resizes, Cloud SQL restarts and patches, Cloud Deploy promotions."
    ),
    rationale=_RATIONALE.format("project"),
    safer_alternative=_SAFER.format("`gcloud config list`"),
    matches=tuple(command("gcloud", path, where=_GCP_PRODUCTION) for path in GCLOUD_DEPLOYS),
    message="deploys or restarts in a production Google Cloud project",
    must_match=(
        "gcloud run deploy api --image gcr.io/acme/api:2.1 --project acme-prod --region europe-west1",
        "gcloud config set project acme-prod && gcloud app deploy app.yaml",
        "CLOUDSDK_CORE_PROJECT=acme-production gcloud functions deploy hook --runtime python312",
    ),
    must_not_match=(
        "gcloud run deploy api --image gcr.io/acme/api:2.1 --project acme-staging",
        "gcloud config set project acme-prod && gcloud run services list",
        "gcloud config set project acme-prod && gcloud run deploy api --project acme-dev",
    ),
)

_AZURE_PRODUCTION = in_production(Target(frozenset({"--subscription"}), (), AZURE_SUBSCRIPTION))

AZURE_PRODUCTION_DEPLOY = pack_rule(
    id="CL129",
    name="azure-production-deploy",
    severity=Severity.MEDIUM,
    summary=(
        "Deploys, restarts or resizes in an Azure subscription named for production (`--subscription "
        "Production`, `az account set -s prod` earlier): web and function app deployments and restarts, app "
        "settings, Container Apps updates, AKS upgrades and scaling, VM restarts, ARM deployments."
    ),
    rationale=_RATIONALE.format("subscription"),
    safer_alternative=_SAFER.format("`az account show`"),
    matches=tuple(command("az", path, where=_AZURE_PRODUCTION) for path in AZ_DEPLOYS),
    message="deploys or restarts in a production Azure subscription",
    must_match=(
        "az account set -s prod && az webapp restart -n api -g rg",
        "az webapp deploy -n api -g rg --src-path app.zip --subscription Production",
        "az account set --subscription acme-prd; az aks upgrade -n k8s -g rg --kubernetes-version 1.30",
    ),
    must_not_match=(
        "az account set -s dev && az webapp restart -n api -g rg",
        "az account set -s prod && az webapp list",
        "az webapp deploy -n api -g rg --src-path app.zip --subscription nonprod",
    ),
)
