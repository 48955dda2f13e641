"""storage.s3: S3 and the object stores that work like it, through every client
agents use (aws s3 / s3api, gsutil, gcloud storage, az storage, azcopy,
rclone, mc, s3cmd): mass deletion, single deletions, syncs that delete."""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from .._invocation import Found, any_operand, command, operand, option_value, option_values, pack_rule

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

# Everyone, as each store spells it: S3's canned ACLs and global groups, GCS's members and canned ACLs.
_S3_PUBLIC_ACLS = ("public-read", "public-read-write", "authenticated-read")
_S3_EVERYONE = ("*acs.amazonaws.com/groups/global/allusers*", "*acs.amazonaws.com/groups/global/authenticatedusers*")
_S3_GRANTS = ("--grant-read", "--grant-read-acp", "--grant-write", "--grant-write-acp", "--grant-full-control")
_S3_PUBLIC_GRANT = option_values(
    {"--acl": _S3_PUBLIC_ACLS, "--access-control-policy": _S3_EVERYONE, **dict.fromkeys(_S3_GRANTS, _S3_EVERYONE)}
)
_GCS_EVERYONE = ("allusers", "allauthenticatedusers")
_GCS_EVERYONE_ENTITY = tuple(f"{member}:*" for member in _GCS_EVERYONE)

MAKE_PUBLIC = pack_rule(
    id="ST004",
    name="bucket-made-public",
    severity=Severity.HIGH,
    summary="Opens a bucket or its objects to everyone: a public S3 ACL or grant (`s3api put-bucket-acl --acl public-read`), S3's public access block turned off or deleted (per bucket or for the account), `allUsers` or `allAuthenticatedUsers` given a role or ACL in GCS (`gsutil iam ch`, `gsutil acl ch|set`, `gcloud storage buckets add-iam-policy-binding`), anonymous access to an Azure container or account.",
    rationale="Every object in the bucket can be listed or read by anyone on the internet at once; crawlers find public buckets within hours, and what they copied stays copied after the access is taken back.",
    safer_alternative="Share one object with a presigned or signed URL, or grant the role to the accounts that need it; let a person decide whether a bucket is public.",
    matches=(
        *(command("aws", f"s3api {operation}", where=_S3_PUBLIC_GRANT) for operation in ("put-bucket-acl", "put-object-acl")),
        *(command("aws", f"{service} put-public-access-block", where=option_value("--public-access-block-configuration", "*false*")) for service in ("s3api", "s3control")),
        *(command("aws", f"{service} delete-public-access-block") for service in ("s3api", "s3control")),
        command("gsutil", "iam ch", where=any_operand("[aA]ll[uU]sers:*", "[aA]ll[aA]uthenticated[uU]sers:*")),
        *(command("gsutil", f"{acl} ch", where=option_values({"-u": _GCS_EVERYONE_ENTITY, "-g": _GCS_EVERYONE_ENTITY})) for acl in ("acl", "defacl")),
        *(command("gsutil", f"{acl} set", where=operand("ACL", *_S3_PUBLIC_ACLS)) for acl in ("acl", "defacl")),
        *(command("gcloud", f"{track}storage buckets add-iam-policy-binding", where=option_value("--member", *_GCS_EVERYONE)) for track in _GCLOUD_TRACKS),
        *(command("az", f"storage container {verb}", where=option_value("--public-access", "blob", "container")) for verb in ("set-permission", "create")),
        command("az", "storage account update", where=option_value("--allow-blob-public-access", "true", "yes")),
    ),
    message="opens a bucket or its objects to everyone",
    must_match=(
        "aws s3api put-bucket-acl --bucket site --acl public-read",
        "aws s3api put-object-acl --bucket b --key k --grant-read uri=http://acs.amazonaws.com/groups/global/AllUsers",
        "aws s3api put-public-access-block --bucket b --public-access-block-configuration BlockPublicAcls=false,IgnorePublicAcls=false,BlockPublicPolicy=false,RestrictPublicBuckets=false",
        "aws s3api delete-public-access-block --bucket b",
        "gsutil iam ch allUsers:objectViewer gs://site",
        "gsutil acl ch -u AllUsers:R gs://site/index.html",
        "gcloud storage buckets add-iam-policy-binding gs://site --member=allUsers --role=roles/storage.objectViewer",
        "az storage container set-permission --name assets --account-name acct --public-access blob",
    ),
    must_not_match=(
        "aws s3api get-bucket-acl --bucket site",
        "aws s3api put-bucket-acl --bucket site --acl private",
        "aws s3api put-public-access-block --bucket b --public-access-block-configuration BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true",
        "gsutil iam ch -d allUsers gs://site",
        "gsutil iam ch user:alice@example.com:objectViewer gs://site",
        "gcloud storage buckets add-iam-policy-binding gs://b --member=user:alice@example.com --role=roles/storage.objectViewer",
        "az storage container set-permission --name assets --account-name acct --public-access off",
    ),
)  # fmt: skip

PACK = Pack(
    name="storage.s3",
    summary="Object storage (S3 and GCS, Azure Blob, MinIO and other S3-compatible stores) through every common client: deletions, and buckets opened to everyone.",
    default=True,
    reason="Objects deleted from a bucket without versioning cannot be restored by the agent, and what a public bucket served has been copied.",
    rules=(MASS_DELETE, DELETE_OBJECT, SYNC_DELETE, MAKE_PUBLIC),
)
