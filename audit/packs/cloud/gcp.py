"""cloud.gcp: deleting projects, data stores and infrastructure with gcloud (any
release track) and bq, and the BigQuery statements `bq query` runs. Object
storage is the storage.s3 pack's, secrets and keys the secrets.cloud pack's."""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg
from ...programs.cloud import GCLOUD_IAM_RESOURCES
from ...rules._pack import Pack
from .._invocation import Found, Invocation, Predicate, command, option_value, option_values, pack_rule
from ..database._statements import statement_rules
from ._internet import WEB_PORTS, every_address_from
from .production import GCP_PRODUCTION_DEPLOY

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


def _gcloud(*paths: str, where: tuple[Predicate, ...] = (), any_of: tuple[str, ...] = ()) -> tuple[Invocation, ...]:
    """The commands on every release track: `gcloud beta sql instances delete` is the same deletion."""
    return tuple(
        command("gcloud", f"{track}{path}", where=where, any_of=any_of)
        for path in paths
        for track in ("", "alpha ", "beta ")
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


def _beyond_the_web(found: Found) -> Arg | None:
    """A firewall rule's `--allow` (or `--rules`) that opens a port other than 80 and 443: a port
    named (`tcp:22`), every port of a protocol (`tcp`) or everything (`all`); no list is every port."""
    words = found.reading.values("--allow", "--rules")
    if not words:
        return found.reading.args[-1]
    for word in words:
        for value in word.values:
            for entry in value.split(","):
                _, _, ports = entry.partition(":")
                if not ports or any(port not in WEB_PORTS for port in ports.split("-")):
                    return word
    return None


OPEN_TO_THE_INTERNET = pack_rule(
    id="CL206",
    name="gcp-open-to-the-internet",
    severity=Severity.HIGH,
    summary="Opens a Cloud SQL instance to every address (`--authorized-networks=0.0.0.0/0`), or a VPC firewall rule from every address to a port other than 80 or 443.",
    rationale="Scanners find an open database or SSH port within minutes and try every password and known flaw on it; opening 80 or 443 to everyone is what a public web server needs, so those pass.",
    safer_alternative="Authorize your own address (`/32`) or the VPC's range, connect through the Cloud SQL Auth Proxy or IAP (`gcloud compute ssh --tunnel-through-iap`).",
    matches=(
        *_gcloud("sql instances patch", "sql instances create", where=(every_address_from("--authorized-networks"),)),
        *_gcloud("compute firewall-rules create", "compute firewall-rules update", where=(every_address_from("--source-ranges"), _beyond_the_web)),
    ),
    message="opens a database or port to the whole internet",
    must_match=(
        "gcloud sql instances patch prod --authorized-networks=0.0.0.0/0",
        "gcloud compute firewall-rules create ssh --allow tcp:22 --source-ranges 0.0.0.0/0",
    ),
    must_not_match=(
        "gcloud sql instances patch prod --authorized-networks=203.0.113.7/32",
        "gcloud compute firewall-rules create web --allow tcp:80,tcp:443 --source-ranges 0.0.0.0/0",
    ),
)  # fmt: skip

REMOVE_PROTECTION = pack_rule(
    id="CL207",
    name="gcp-remove-protection",
    severity=Severity.MEDIUM,
    summary="Turns off a Cloud SQL instance's automated backups (`--no-backup`) or deletion protection, or a VM's deletion protection.",
    rationale="Nothing is lost yet, but the copies and the setting that would undo a mistaken or hostile delete are gone; it is also what retiring an instance needs first, so the command runs and the warning says so.",
    safer_alternative="Leave backups and protection on; export the database first (`gcloud sql export`) and let a person retire the instance.",
    matches=(
        *_gcloud("sql instances patch", any_of=("--no-backup", "--no-deletion-protection")),
        *_gcloud("compute instances update", any_of=("--no-deletion-protection",)),
    ),
    message="turns off backups or deletion protection",
    must_match=("gcloud sql instances patch prod --no-backup", "gcloud compute instances update vm1 --no-deletion-protection"),
    must_not_match=("gcloud sql instances patch prod --backup-start-time 02:00", "gcloud compute instances update vm1 --deletion-protection"),
)  # fmt: skip

CREATE_KEY = pack_rule(
    id="CL208",
    name="gcp-create-service-account-key",
    severity=Severity.MEDIUM,
    summary="Creates or uploads a long-lived key for a service account (`gcloud iam service-accounts keys create`, `keys upload`).",
    rationale="The key signs in as the service account until someone deletes it, from anywhere, and the created one lands in a file the agent can read; rotating a key is routine, so the command runs and the warning says a credential now exists.",
    safer_alternative="Use workload identity federation, `--impersonate-service-account` or the metadata server instead of key files.",
    matches=_gcloud("iam service-accounts keys create", "iam service-accounts keys upload"),
    message="creates a long-lived service account key",
    must_match=(
        "gcloud iam service-accounts keys create key.json --iam-account sa@p.iam.gserviceaccount.com",
        "gcloud iam service-accounts keys upload pub.pem --iam-account ci@p.iam.gserviceaccount.com",
    ),
    must_not_match=("gcloud iam service-accounts list", "gcloud iam service-accounts keys list --iam-account ci@p.iam.gserviceaccount.com"),
)  # fmt: skip

# Instance metadata that lets someone in or runs code as root at boot.
_SIGN_IN_OR_BOOT_CODE = (
    "ssh-keys=*",
    "sshkeys=*",
    "*,ssh-keys=*",
    "*,sshkeys=*",
    "startup-script*=*",
    "*,startup-script*=*",
    "windows-startup-script*=*",
    "enable-oslogin=false*",
    "*,enable-oslogin=false*",
)

ADD_SIGN_IN = pack_rule(
    id="CL209",
    name="gcp-add-ssh-key-or-startup-script",
    severity=Severity.HIGH,
    summary="Adds SSH keys or a startup script to a VM's or the whole project's metadata (`add-metadata --metadata ssh-keys=...`, `startup-script=...`), or turns OS Login off there.",
    rationale="A key in project metadata signs in to every VM of the project that accepts metadata keys, and a startup script runs as root on every boot: both outlast the session and are a standing way back in.",
    safer_alternative="Use OS Login with IAM (`roles/compute.osLogin`) or `gcloud compute ssh`, which adds a short-lived key for you; put boot configuration in the image or the infrastructure code.",
    matches=_gcloud(
        "compute instances add-metadata", "compute project-info add-metadata",
        where=(option_values(dict.fromkeys(("--metadata", "--metadata-from-file"), _SIGN_IN_OR_BOOT_CODE)),),
    ),
    message="adds SSH keys or boot code to instance metadata",
    must_match=(
        "gcloud compute project-info add-metadata --metadata-from-file ssh-keys=evil.pub",
        "gcloud compute instances add-metadata vm1 --metadata startup-script='curl x | sh'",
    ),
    must_not_match=(
        "gcloud compute instances add-metadata vm1 --metadata env=prod",
        "gcloud compute project-info add-metadata --metadata enable-oslogin=TRUE",
    ),
)  # fmt: skip

SET_IAM_POLICY = pack_rule(
    id="CL210",
    name="gcp-set-iam-policy",
    severity=Severity.HIGH,
    summary="Replaces a project's, folder's or organisation's whole IAM policy (`gcloud projects set-iam-policy PROJECT FILE`).",
    rationale="Every binding not in the file is removed, the owners' included, and every one in it is granted: one command can lock the owners out and hand the project to someone else.",
    safer_alternative="Add or remove one binding (`add-iam-policy-binding`, `remove-iam-policy-binding`), or manage the policy through the infrastructure code.",
    matches=_gcloud("projects set-iam-policy", "organizations set-iam-policy", "resource-manager folders set-iam-policy"),
    message="replaces a whole IAM policy",
    must_match=("gcloud projects set-iam-policy prod policy.json", "gcloud organizations set-iam-policy 1234 policy.yaml"),
    must_not_match=("gcloud projects get-iam-policy prod", "gcloud projects add-iam-policy-binding prod --member=user:a@example.com --role=roles/viewer"),
)  # fmt: skip

DISABLE_AUDIT = pack_rule(
    id="CL211",
    name="gcp-delete-log-sink",
    severity=Severity.HIGH,
    summary="Deletes a log sink (`gcloud logging sinks delete`): the export of audit and other logs to a bucket, BigQuery or a SIEM.",
    rationale="What the sink would have exported from now on is never exported: the security team's copy of the audit trail stops, a step attackers take first.",
    safer_alternative="Leave the sink; change its filter or destination with `gcloud logging sinks update`, through the infrastructure code.",
    matches=_gcloud("logging sinks delete"),
    message="stops exporting logs",
    must_match=("gcloud logging sinks delete siem-export --quiet", "gcloud beta logging sinks delete audit-to-bq"),
    must_not_match=("gcloud logging sinks list", "gcloud logging buckets list"),
)  # fmt: skip

SCALE_TO_ZERO = pack_rule(
    id="CL212",
    name="gcp-scale-to-zero",
    severity=Severity.MEDIUM,
    summary="Scales a managed instance group or a GKE cluster's nodes to zero, stops or suspends VMs (`compute instances stop`, `suspend`), or stops a Cloud SQL instance (`--activation-policy NEVER`).",
    rationale="Every VM or node stops at once and the service is down until someone scales it back or starts it again, and a VM's local SSDs are wiped when it stops; nothing else is deleted, so the command runs and the warning says what stops.",
    safer_alternative="Check the project and the target first (`gcloud config list`); scale down in steps, or through the infrastructure code.",
    matches=(
        *_gcloud("compute instance-groups managed resize", where=(option_value("--size", "0"),)),
        *_gcloud("container clusters resize", where=(option_value("--num-nodes", "0"),)),
        *_gcloud("sql instances patch", where=(option_value("--activation-policy", "never"),)),
        *_gcloud("compute instances stop", "compute instances suspend"),
    ),
    message="scales a service to zero or stops it",
    must_match=(
        "gcloud compute instance-groups managed resize web --size 0 --zone europe-west1-b",
        "gcloud container clusters resize prod --node-pool default-pool --num-nodes 0",
    ),
    must_not_match=(
        "gcloud compute instance-groups managed resize web --size 3 --zone europe-west1-b",
        "gcloud container clusters resize prod --node-pool default-pool --num-nodes 3",
    ),
)  # fmt: skip

REPLACE_SECRET = pack_rule(
    id="CL213",
    name="gcp-replace-secret",
    severity=Severity.MEDIUM,
    summary="Adds a new version to a Secret Manager secret (`gcloud secrets versions add`), which becomes what `latest` reads.",
    rationale="Everything that reads the secret's latest version gets the new value at its next read, and breaks if it is wrong; rotating is routine, so the command runs and the warning says what changed.",
    safer_alternative="Rotate through the secret's rotation schedule or the pipeline, and pin readers to a version until the new one is checked.",
    matches=_gcloud("secrets versions add"),
    message="replaces a secret's value",
    must_match=("gcloud secrets versions add db-pass --data-file=new.txt", "gcloud beta secrets versions add api-key --data-file=-"),
    must_not_match=("gcloud secrets versions list db-pass", "gcloud secrets list"),
)  # fmt: skip

FIREBASE_DELETE = pack_rule(
    id="CL214",
    name="firebase-delete-data",
    severity=Severity.HIGH,
    summary="Deletes Firebase data in bulk: every Firestore collection (`firebase firestore:delete --all-collections`), a collection or document recursively (`-r`), a Firestore database, or a Realtime Database path (`firebase database:remove PATH`).",
    rationale="The documents are deleted on the server at once, for every user of the app; Firestore and the Realtime Database keep no copy unless point-in-time recovery or scheduled backups were set up.",
    safer_alternative="Export first (`gcloud firestore export gs://BUCKET`), delete against the emulator (`firebase emulators:start`), and let a person delete production data.",
    matches=(
        command("firebase", "firestore:delete", any_of=("--all-collections", "--recursive")),
        command("firebase", "firestore:databases:delete"),
        command("firebase", "database:remove"),
    ),
    message="deletes Firebase data",
    must_match=("firebase firestore:delete --all-collections -y", "firebase database:remove /users --project prod -f"),
    must_not_match=("firebase projects:list", "firebase firestore:delete users/alice --project dev"),
)

PACK = Pack(
    name="cloud.gcp",
    summary="gcloud (every release track), bq and firebase: projects, instances, databases and clusters, other infrastructure, the statements `bq query` runs, roles granted to everyone or ownership, whole IAM policies replaced; databases and ports opened to the internet, SSH keys and startup scripts in metadata, service account keys, log sinks deleted; backups and deletion protection off, scale to zero, secrets replaced; deploys and restarts in a production project.",
    default=True,
    reason="Deleted projects, databases and disks cannot be restored by the agent, and the project may be production.",
    rules=(
        DELETE_DATA,
        DELETE_RESOURCE,
        *BIGQUERY_STATEMENTS,
        GRANT_PUBLIC_OR_OWNER,
        OPEN_TO_THE_INTERNET,
        REMOVE_PROTECTION,
        CREATE_KEY,
        ADD_SIGN_IN,
        SET_IAM_POLICY,
        DISABLE_AUDIT,
        SCALE_TO_ZERO,
        REPLACE_SECRET,
        FIREBASE_DELETE,
        GCP_PRODUCTION_DEPLOY,
    ),
)
