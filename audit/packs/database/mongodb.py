"""database.mongodb: MongoDB: shell JavaScript run through mongosh/mongo, mongorestore --drop."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule
from ._statements import statement_rules

MONGODB_STATEMENTS = statement_rules(
    ids=("DB501", "DB502"),
    label="mongodb",
    database="MongoDB",
    programs=("mongosh", "mongo"),
    destroying=(
        "mongosh shop --eval 'db.dropDatabase()'",
        "mongosh --eval 'db.orders.deleteMany({})'",
        "mongo shop --eval 'db.users.drop()'",
    ),
    not_destroying=(
        "mongosh --eval 'db.orders.countDocuments()'",
        "mongosh shop --eval 'db.orders.deleteMany({status: \"void\"})'",
    ),
    risky=("mongosh --eval 'db.users.dropIndexes()'", "mongosh admin --eval 'db.shutdownServer()'"),
    not_risky=("mongosh --eval 'db.stats()'", "mongosh --eval 'db.users.createIndex({email: 1})'"),
)

MONGODB_RESTORE = pack_rule(
    id="DB503",
    name="mongodb-restore-drop",
    severity=Severity.MEDIUM,
    summary="`mongorestore --drop` drops each collection before restoring it from the dump.",
    rationale="Documents written since the dump are lost in every collection the dump holds.",
    safer_alternative="Restore into another database (`--nsFrom shop.* --nsTo shop_restore.*`) and compare first.",
    matches=(command("mongorestore", requires=("--drop",), unless=("--dryRun",)),),
    message="drops collections before restoring them",
    must_match=("mongorestore --drop dump/", "mongorestore --uri mongodb://db/shop --drop dump/shop"),
    must_not_match=("mongorestore dump/", "mongorestore --drop --dryRun dump/"),
)

PACK = Pack(
    name="database.mongodb",
    summary="MongoDB: shell JavaScript run through mongosh/mongo (--eval, heredocs), restores that drop collections.",
    default=True,
    reason="A dropped database or collection cannot be restored by the agent.",
    rules=(*MONGODB_STATEMENTS, MONGODB_RESTORE),
)
