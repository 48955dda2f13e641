"""storage.s3: S3 and the object stores that work like it, through every client
agents use (aws s3 / s3api, gsutil, gcloud storage, az storage, azcopy,
rclone, mc, s3cmd): mass deletion, single deletions, syncs that delete."""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from .._invocation import Found, any_operand, command, option_value, pack_rule

_AWS_DRY = ("--dryrun",)
_RCLONE_SAFE = ("--dry-run", "--interactive")
# `gs://bucket/**` and `gs://bucket/dir/**` match every object below (`[*]` is a literal star).
_EVERYTHING_BELOW = any_operand("*/[*][*]", "*/[*][*]/*")


def _named_objects(found: Found) -> Arg | None:
    """A `gs://` URL that names objects, not everything below a prefix (`**`)."""
    return next(
        (
            word
            for word in found.reading.operands
            if (word.value or "").startswith("gs://") and "**" not in (word.value or "")
        ),
        None,
    )


_GCLOUD_TRACKS = ("", "alpha ", "beta ")

MASS_DELETE = pack_rule(
    id="ST001",
    name="object-storage-mass-delete",
    severity=Severity.HIGH,
    summary="Deletes every object under a bucket or prefix, or a bucket with its contents (`aws s3 rm --recursive`, `gsutil rm -r`, `rclone purge`...).",
    rationale="Object stores have no recycle bin unless versioning is on: a recursive delete or forced bucket removal is final.",
    safer_alternative="Run it with the client's dry run first (`--dryrun`, `-n`, `--dry-run`) and delete the narrowest prefix you mean.",
    matches=(
        command("aws", "s3 rm", requires=("--recursive",), unless=_AWS_DRY),
        command("aws", "s3 rb", requires=("--force",)),
        command("aws", "s3api delete-objects"),
        command("gsutil", "rm", requires=("-r",)),
        command("gsutil", "rm", where=_EVERYTHING_BELOW),
        *(command("gcloud", f"{track}storage rm", requires=("--recursive",)) for track in _GCLOUD_TRACKS),
        *(command("gcloud", f"{track}storage rm", where=_EVERYTHING_BELOW) for track in _GCLOUD_TRACKS),
        command("rclone", "purge", unless=_RCLONE_SAFE),
        command("rclone", "delete", unless=_RCLONE_SAFE),
        command("mc", "rm", requires=("--recursive",), unless=("--dry-run",)),
        command("mc", "rb", requires=("--force",)),
        command("s3cmd", "del", requires=("--recursive",), unless=("--dry-run",)),
        command("s3cmd", "rb", requires=("--recursive",)),
        command("az", "storage blob delete-batch", unless=("--dryrun",)),
        command("az", "storage container delete"),
        command("az", "storage share delete"),
        command("az", "storage account delete"),
        command("azcopy", "remove", requires=("--recursive",), unless=("--dry-run",)),
    ),
    message="deletes every object under the target",
    must_match=(
        "aws s3 rm s3://logs/ --recursive",
        "aws s3 rb s3://old-bucket --force",
        "gsutil -m rm -r gs://my-bucket",
        "rclone purge remote:backups",
    ),
    must_not_match=(
        "aws s3 rm s3://logs/ --recursive --dryrun",
        "aws s3 ls s3://logs/ --recursive",
        "aws s3 cp ./dist s3://site/ --recursive",
        "rclone purge remote:backups --dry-run",
    ),
)

DELETE_OBJECT = pack_rule(
    id="ST002",
    name="object-storage-delete",
    severity=Severity.MEDIUM,
    summary="Deletes single objects or an empty bucket (`aws s3 rm s3://b/key`, `gsutil rm gs://b/o`, `aws s3 rb`).",
    rationale="A deleted object is gone unless the bucket keeps versions; the scope is what the command names.",
    safer_alternative="Check the exact key with `ls` first; keep versioning on for buckets that matter.",
    matches=(
        command("aws", "s3 rm", unless=("--recursive", *_AWS_DRY)),
        command("aws", "s3 rb", unless=("--force",)),
        command("aws", "s3api delete-object"),
        command("aws", "s3api delete-bucket"),
        command("gsutil", "rm", unless=("-r",), where=_named_objects),
        command("gsutil", "rb"),
        *(
            command("gcloud", f"{track}storage rm", unless=("--recursive",), where=_named_objects)
            for track in _GCLOUD_TRACKS
        ),
        *(command("gcloud", f"{track}storage buckets delete") for track in _GCLOUD_TRACKS),
        command("rclone", "deletefile", unless=_RCLONE_SAFE),
        command("mc", "rm", unless=("--recursive", "--dry-run")),
        command("mc", "rb", unless=("--force",)),
        command("s3cmd", "del", unless=("--recursive", "--dry-run")),
        command("s3cmd", "rb", unless=("--recursive",)),
        command("az", "storage blob delete"),
        command("azcopy", "remove", unless=("--recursive", "--dry-run")),
    ),
    message="deletes objects from object storage",
    must_match=(
        "aws s3 rm s3://assets/logo-old.png",
        "gsutil rm gs://b/reports/2023.csv",
        "aws s3api delete-bucket --bucket tmp-bucket",
    ),
    must_not_match=(
        "aws s3 cp s3://assets/logo.png .",
        "gsutil ls gs://b/reports/",
        "aws s3 rm s3://assets/x.png --dryrun",
    ),
)

SYNC_DELETE = pack_rule(
    id="ST003",
    name="object-storage-sync-delete",
    severity=Severity.MEDIUM,
    summary="Syncs to object storage and deletes what the source lacks (`aws s3 sync --delete`, `rclone sync`, `gsutil rsync -d`...).",
    rationale="A deleting sync from the wrong or an empty directory wipes the destination to match it.",
    safer_alternative="Run the sync with its dry run first, or copy without deleting (`aws s3 cp --recursive`, `rclone copy`).",
    matches=(
        command("aws", "s3 sync", requires=("--delete",), unless=_AWS_DRY),
        command("gsutil", "rsync", requires=("-d",), unless=("-n",)),
        *(
            command(
                "gcloud",
                f"{track}storage rsync",
                requires=("--delete-unmatched-destination-objects",),
                unless=("--dry-run",),
            )
            for track in _GCLOUD_TRACKS
        ),
        command("rclone", "sync", unless=_RCLONE_SAFE),
        command("mc", "mirror", requires=("--remove",), unless=("--dry-run",)),
        command("s3cmd", "sync", requires=("--delete-removed",), unless=("--dry-run",)),
        command("az", "storage blob sync", where=option_value("--delete-destination", "true")),
        command("azcopy", "sync", where=option_value("--delete-destination", "true")),
    ),
    message="a sync that deletes what the source lacks",
    must_match=(
        "aws s3 sync ./public s3://site --delete",
        "rclone sync ./photos gdrive:photos",
        "gsutil -m rsync -r -d ./out gs://site",
    ),
    must_not_match=(
        "aws s3 sync ./public s3://site",
        "rclone copy ./photos gdrive:photos",
        "rclone sync ./photos gdrive:photos --dry-run",
    ),
)

PACK = Pack(
    name="storage.s3",
    summary="Object storage (S3 and GCS, Azure Blob, MinIO and other S3-compatible stores) through every common client.",
    default=True,
    reason="Objects deleted from a bucket without versioning cannot be restored by the agent.",
    rules=(MASS_DELETE, DELETE_OBJECT, SYNC_DELETE),
)
