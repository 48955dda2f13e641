"""cloud.gcp: deleting projects, data stores and infrastructure with gcloud (any
release track) and bq, and the BigQuery statements `bq query` runs. Object
storage is the storage.s3 pack's, secrets and keys the secrets.cloud pack's."""

from __future__ import annotations

from ..._model import Severity
from ...programs.cloud import GCLOUD_IAM_RESOURCES
from ...rules._pack import Pack
from .._invocation import Invocation, Predicate, command, option_values, pack_rule
from ..database._statements import statement_rules

_DATA = (
    "projects delete", "compute instances delete", "compute disks delete", "compute snapshots delete",
    "sql instances delete", "sql databases delete", "container clusters delete", "spanner instances delete",
    "spanner databases delete", "bigtable instances delete", "firestore databases delete",
    "filestore instances delete", "redis instances delete", "alloydb clusters delete",
    "deployment-manager deployments delete", "artifacts repositories delete", "logging buckets delete",
)  # fmt: skip
_RESOURCES = (
    "compute images delete", "compute instance-groups managed delete", "compute networks delete",
    "container node-pools delete", "pubsub topics delete", "pubsub subscriptions delete", "functions delete",
    "run services delete", "app services delete", "iam service-accounts delete", "iam roles delete",
    "dns managed-zones delete",
)  # fmt: skip


def _gcloud(*paths: str, where: tuple[Predicate, ...] = ()) -> tuple[Invocation, ...]:
    """The commands on every release track: `gcloud beta sql instances delete` is the same deletion."""
    return tuple(
        command("gcloud", f"{track}{path}", where=where) for path in paths for track in ("", "alpha ", "beta ")
    )


DELETE_DATA = pack_rule(
    id="CL201",
    name="gcp-delete-data",
    severity=Severity.HIGH,
    summary="Deletes a Google Cloud project, instance, disk, database, cluster or BigQuery dataset.",
    rationale="These deletions take their data with them; a deleted project takes everything in it (and is only recoverable by its owner for a short time).",
    safer_alternative="Export or snapshot first, enable deletion protection, and delete through the infrastructure code that created it.",
    matches=(
        *_gcloud(*_DATA),
        command("bq", "rm", any_of=("--dataset", "--recursive")),
    ),
    message="deletes Google Cloud resources and their data",
    must_match=(
        "gcloud projects delete my-project",
        "gcloud sql instances delete prod-db --quiet",
        "gcloud beta container clusters delete dev --region us-central1",
        "bq rm -r -f -d my_project:analytics",
    ),
    must_not_match=("gcloud projects list", "gcloud compute instances list --format=json", "gcloud config list"),
)

DELETE_RESOURCE = pack_rule(
    id="CL202",
    name="gcp-delete-resource",
    severity=Severity.MEDIUM,
    summary="Deletes Google Cloud infrastructure that holds no data of its own (functions, services, topics, service accounts...) or a BigQuery table.",
    rationale="The resource can be recreated, but what depends on it breaks at once; a table is recoverable only through time travel for a few days.",
    safer_alternative="Check the project (`gcloud config list`) and delete through the infrastructure code that created it.",
    matches=(
        *_gcloud(*_RESOURCES),
        command("bq", "rm", unless=("--dataset", "--recursive")),
    ),
    message="deletes Google Cloud infrastructure",
    must_match=(
        "gcloud functions delete api --region europe-west1",
        "gcloud iam service-accounts delete ci@p.iam.gserviceaccount.com",
        "bq rm -f my_dataset.events",
    ),
    must_not_match=("gcloud auth list", "bq ls my_dataset", "gcloud run services list"),
)

BIGQUERY_STATEMENTS = statement_rules(
    ids=("CL203", "CL204"),
    label="bigquery",
    database="BigQuery",
    programs=("bq",),
    destroying=(
        "bq query --nouse_legacy_sql 'DROP TABLE analytics.events'",
        "bq query --use_legacy_sql=false 'DELETE FROM analytics.events WHERE true'",
    ),
    not_destroying=("bq query --use_legacy_sql=false 'SELECT 1'", "bq rm -f my_dataset.events"),
    risky=(
        "bq query --nouse_legacy_sql 'DROP VIEW analytics.daily'",
        "bq query --use_legacy_sql=false 'DROP FUNCTION analytics.clean_name'",
    ),
    not_risky=("bq query 'SELECT COUNT(*) FROM analytics.events'", "bq ls analytics"),
)

# Buckets opened to everyone are the storage.s3 pack's (ST004).
_IAM_RESOURCES = tuple(resource for resource in GCLOUD_IAM_RESOURCES if resource != "storage buckets")
_EVERYONE_OR_OWNER = option_values({"--member": ("allusers", "allauthenticatedusers"), "--role": ("roles/owner",)})

GRANT_PUBLIC_OR_OWNER = pack_rule(
    id="CL205",
    name="gcp-grant-public-or-owner",
    severity=Severity.HIGH,
    summary="Grants a role to everyone (`add-iam-policy-binding --member=allUsers` or `allAuthenticatedUsers`) or makes someone owner (`--role=roles/owner`) on a project, folder, organisation, function, service, topic, secret or other resource.",
    rationale="`allUsers` is anyone on the internet and `allAuthenticatedUsers` anyone with a Google account; an owner can do anything, grant anything and delete the project. Neither is taken back before it has been used.",
    safer_alternative="Grant a narrower predefined role to the user, group or service account that needs it; let a person grant ownership or public access.",
    matches=_gcloud(
        *(f"{resource} add-iam-policy-binding" for resource in _IAM_RESOURCES), where=(_EVERYONE_OR_OWNER,)
    ),
    message="grants a role to everyone or makes someone owner",
    must_match=(
        "gcloud functions add-iam-policy-binding api --member=allUsers --role=roles/cloudfunctions.invoker",
        "gcloud projects add-iam-policy-binding prod --member=user:bob@example.com --role=roles/owner",
        "gcloud beta secrets add-iam-policy-binding db-pass --member allAuthenticatedUsers --role roles/secretmanager.secretAccessor",
    ),
    must_not_match=(
        "gcloud projects get-iam-policy prod",
        "gcloud projects add-iam-policy-binding prod --member=user:alice@example.com --role=roles/viewer",
        "gcloud run services add-iam-policy-binding api --member=serviceAccount:ci@p.iam.gserviceaccount.com --role=roles/run.invoker",
    ),
)

PACK = Pack(
    name="cloud.gcp",
    summary="gcloud (every release track) and bq: projects, instances, databases and clusters, other infrastructure, the statements `bq query` runs, roles granted to everyone or ownership.",
    default=True,
    reason="Deleted projects, databases and disks cannot be restored by the agent, and the project may be production.",
    rules=(DELETE_DATA, DELETE_RESOURCE, *BIGQUERY_STATEMENTS, GRANT_PUBLIC_OR_OWNER),
)
