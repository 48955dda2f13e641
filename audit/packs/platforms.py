"""More hosting platforms, one table row each, on by default as Heroku's, Vercel's and Netlify's are
(audit/packs/vendors.py): Cloudflare's developer platform (Workers, Pages, KV, R2, D1, Queues),
Supabase, Railway, Render and Firebase Hosting and Functions. Each holds a team's deployed
applications and their data, which the agent cannot restore.

Cloudflare's CDN side (zones, DNS records, the cache) stays in the off-by-default `cdn.cloudflare`
pack: a team runs its applications on Workers whether or not it fronts a site with Cloudflare.
"""

from __future__ import annotations

from .._model import Severity
from ..rules._pack import Pack
from ._invocation import command, pack_rule
from ._vendor import vendor_pack

_PLATFORM_REASON = "A hosting platform holds deployed applications and their databases, which the agent cannot restore."

CLOUDFLARE_PLATFORM = vendor_pack(
    name="platform.cloudflare-workers",
    id="PL701",
    vendor="Cloudflare",
    what="Workers, Pages projects, KV namespaces, R2 buckets and objects, D1 databases, queues and vector indexes",
    commands=tuple(
        command("wrangler", path)
        for path in (
            "delete",
            "kv namespace delete",
            "kv:namespace delete",
            "r2 bucket delete",
            "r2 object delete",
            "d1 delete",
            "queues delete",
            "vectorize delete",
            "pages project delete",
        )
    ),
    api=(
        "api.cloudflare.com/client/v4/accounts/*/workers/**",
        "api.cloudflare.com/client/v4/accounts/*/pages/**",
        "api.cloudflare.com/client/v4/accounts/*/storage/kv/**",
        "api.cloudflare.com/client/v4/accounts/*/r2/**",
        "api.cloudflare.com/client/v4/accounts/*/d1/**",
    ),
    must_match=(
        "wrangler delete --name api-worker",
        "wrangler r2 bucket delete assets",
        "npx wrangler d1 delete prod-db -y",
        'curl -X DELETE "https://api.cloudflare.com/client/v4/accounts/abc/workers/scripts/api" -H "Authorization: Bearer $CF"',
    ),
    must_not_match=("wrangler deploy", "wrangler dev", "wrangler r2 bucket list"),
    default=True,
    reason=_PLATFORM_REASON,
)
SUPABASE = vendor_pack(
    name="platform.supabase",
    id="PL711",
    vendor="Supabase",
    what="projects with their database, preview branches and stored files",
    commands=(
        command("supabase", "projects delete"),
        command("supabase", "branches delete"),
        command("supabase", "storage rm", requires=("--recursive",)),
    ),
    api=("api.supabase.com/v1/projects/*", "api.supabase.com/v1/branches/*"),
    must_match=(
        "supabase projects delete abcdefghijklmnopqrst",
        "supabase branches delete feature-x --project-ref abcd",
        "supabase storage rm -r ss:///avatars --experimental",
    ),
    must_not_match=(
        "supabase projects list",
        "supabase start",
        "supabase storage rm ss:///avatars/a.png --experimental",
    ),
    default=True,
    reason=_PLATFORM_REASON,
)

_RAILWAY_DELETE = pack_rule(
    id="PL721",
    name="railway-destructive-call",
    severity=Severity.HIGH,
    summary="Deletes a Railway project, environment or volume (`railway delete`, `railway environment delete`, `railway volume delete`).",
    rationale="Railway deletes the project's services with their databases, or the volume's data, and keeps nothing to restore.",
    safer_alternative="Make the change in Railway's dashboard, or through infrastructure code that someone reviews.",
    matches=(
        command("railway", "delete"),
        command("railway", "environment delete"),
        command("railway", "volume delete"),
    ),
    message="deletes a project, environment or volume at Railway",
    must_match=("railway delete -y", "railway environment delete staging", "railway volume delete pg-data --yes"),
    must_not_match=("railway up", "railway status", "railway run npm start"),
)
_RAILWAY_DOWN = pack_rule(
    id="PL722",
    name="railway-deployment-removed",
    severity=Severity.MEDIUM,
    summary="Removes a Railway service's running deployment (`railway down`): the service is offline until it is deployed again.",
    rationale="Nothing is deleted for good (`railway up` or a redeploy brings the service back), but whoever uses it meets an outage meanwhile; the command runs and the warning says what went down.",
    safer_alternative="Redeploy a known-good version (`railway redeploy`) instead of taking the service down.",
    matches=(command("railway", "down"),),
    message="takes a Railway service's deployment down",
    must_match=("railway down -y", "railway down --service api --environment production"),
    must_not_match=("railway up --detach", "railway status"),
)
RAILWAY = Pack(
    name="platform.railway",
    summary="Railway: projects, environments and volumes deleted, deployments taken down, through its CLI.",
    default=True,
    reason=_PLATFORM_REASON,
    rules=(_RAILWAY_DELETE, _RAILWAY_DOWN),
)
RENDER = vendor_pack(
    name="platform.render",
    id="PL731",
    vendor="Render",
    what="services and databases",
    commands=(command("render", "services delete"),),
    api=("api.render.com/v1/services/*", "api.render.com/v1/postgres/*", "api.render.com/v1/redis/*"),
    must_match=(
        "render services delete srv-cj5s2dicn0vc73fv4rlh --confirm",
        'curl -X DELETE https://api.render.com/v1/postgres/dpg-123 -H "Authorization: Bearer $RENDER_API_KEY"',
    ),
    must_not_match=("render services list", "curl https://api.render.com/v1/services"),
    default=True,
    reason=_PLATFORM_REASON,
)
FIREBASE_HOSTING = vendor_pack(
    name="platform.firebase",
    id="PL741",
    vendor="Firebase",
    what="Hosting sites and channels, a site's traffic (`hosting:disable`) and Cloud Functions",
    commands=(
        command("firebase", "hosting:disable"),
        command("firebase", "hosting:sites:delete"),
        command("firebase", "hosting:channel:delete"),
        command("firebase", "functions:delete"),
    ),
    must_match=(
        "firebase hosting:disable --site shop -f",
        "firebase hosting:sites:delete shop-staging --force",
        "firebase functions:delete sendReceipt --region us-central1 --force",
    ),
    must_not_match=("firebase deploy --only hosting", "firebase projects:list"),
    default=True,
    reason=_PLATFORM_REASON,
)

VENDOR_PACKS = (CLOUDFLARE_PLATFORM, SUPABASE, RAILWAY, RENDER, FIREBASE_HOSTING)
