"""Hosting platforms and the long tail of services, one table row each.

The hosting platforms (Heroku, Vercel, Netlify, Fly.io, DigitalOcean) are on by
default: they hold the developer's deployed applications and databases. The
services a team may or may not run (payments, CDNs, e-mail, feature flags,
messaging, monitoring, search, backup, CI, API gateways) are off; a policy
turns on the ones the team uses (`[packs] enable = ["payments.stripe",
"cdn.*"]`).
"""

from __future__ import annotations

from ._invocation import command
from ._vendor import vendor_pack

_PLATFORM_REASON = "A hosting platform holds deployed applications and their databases, which the agent cannot restore."
_BROKER_REASON = (
    "A message broker is self-run data infrastructure: a deleted topic, stream or queue takes the messages no "
    "consumer has read with it, and the broker keeps no copy."
)

# -- hosting platforms (on by default) -----------------------------------------------------------

HEROKU = vendor_pack(
    name="platform.heroku",
    id="PL301",
    vendor="Heroku",
    what="apps, add-ons and Postgres data",
    # A restore or a copy overwrites the target database: what it held since the backup is gone.
    commands=tuple(
        command("heroku", verb)
        for verb in ("apps:destroy", "pg:reset", "pg:backups:restore", "pg:copy", "addons:destroy")
    ),
    api=("api.heroku.com/apps/*", "api.heroku.com/apps/*/addons/*"),
    must_match=(
        "heroku apps:destroy --app shop-prod --confirm shop-prod",
        "heroku pg:reset DATABASE_URL -a shop",
        "curl -X DELETE https://api.heroku.com/apps/shop-staging",
    ),
    must_not_match=("heroku apps:info -a shop", "heroku logs --tail -a shop", "curl https://api.heroku.com/apps/shop"),
    default=True,
    reason=_PLATFORM_REASON,
)
VERCEL = vendor_pack(
    name="platform.vercel",
    id="PL401",
    vendor="Vercel",
    what="projects, deployments, environment variables and domains",
    commands=(
        command("vercel", "remove"),
        command("vercel", "env rm"),
        command("vercel", "domains rm"),
        command("vercel", "project rm"),
    ),
    api=("api.vercel.com/**",),
    must_match=(
        "vercel remove my-app --yes",
        "vercel env rm DATABASE_URL production",
        'curl -X DELETE -H "Authorization: Bearer $T" https://api.vercel.com/v9/projects/my-app',
    ),
    must_not_match=("vercel list", "vercel --prod", "vercel env pull .env.local"),
    default=True,
    reason=_PLATFORM_REASON,
)
NETLIFY = vendor_pack(
    name="platform.netlify",
    id="PL501",
    vendor="Netlify",
    what="sites and environment variables",
    commands=(command("netlify", "sites:delete"), command("netlify", "env:unset")),
    api=("api.netlify.com/api/v1/**",),
    must_match=(
        "netlify sites:delete 1a2b3c --force",
        "netlify env:unset API_KEY",
        "curl -X DELETE https://api.netlify.com/api/v1/sites/1a2b3c",
    ),
    must_not_match=("netlify status", "netlify deploy --prod --dir dist", "netlify env:list"),
    default=True,
    reason=_PLATFORM_REASON,
)
FLY = vendor_pack(
    name="platform.fly",
    id="PL601",
    vendor="Fly.io",
    what="apps and volumes",
    commands=(command(("fly", "flyctl"), "apps destroy"), command(("fly", "flyctl"), "volumes destroy")),
    api=("api.machines.dev/v1/apps/*", "api.machines.dev/v1/apps/*/volumes/*"),
    must_match=(
        "fly apps destroy shop-api --yes",
        "flyctl volumes destroy vol_123 -y",
        "curl -X DELETE https://api.machines.dev/v1/apps/shop-api",
    ),
    must_not_match=("fly apps list", "fly deploy", "fly status -a shop-api"),
    default=True,
    reason=_PLATFORM_REASON,
)
DIGITALOCEAN = vendor_pack(
    name="cloud.digitalocean",
    id="CL401",
    vendor="DigitalOcean",
    what="droplets, databases, clusters, volumes and apps",
    commands=tuple(
        command("doctl", path)
        for path in (
            "compute droplet delete",
            "databases delete",
            "kubernetes cluster delete",
            "compute volume delete",
            "apps delete",
        )
    ),
    api=("api.digitalocean.com/v2/**",),
    must_match=(
        "doctl compute droplet delete web-1 --force",
        "doctl databases delete 9cc10173 -f",
        'curl -X DELETE -H "Authorization: Bearer $DO_TOKEN" https://api.digitalocean.com/v2/droplets/123',
    ),
    must_not_match=("doctl compute droplet list", "doctl account get", "curl https://api.digitalocean.com/v2/droplets"),
    default=True,
    reason="Deleted droplets, databases and volumes cannot be restored by the agent, and the account may be production.",
)

# -- the long tail (off by default) ---------------------------------------------------------------

STRIPE = vendor_pack(
    name="payments.stripe",
    id="PY101",
    vendor="Stripe",
    what="customers, products, subscriptions and webhooks",
    commands=(
        command("stripe", "customers delete"),
        command("stripe", "products delete"),
        command("stripe", "subscriptions cancel"),
        command("stripe", "webhook_endpoints delete"),
    ),
    api=("api.stripe.com/v1/**",),
    must_match=(
        "stripe customers delete cus_Nf8x",
        "stripe subscriptions cancel sub_123 --live",
        "curl -X DELETE https://api.stripe.com/v1/customers/cus_Nf8x -u sk_live_x:",
    ),
    must_not_match=(
        "stripe customers list --limit 3",
        "stripe listen --forward-to localhost:3000/webhooks",
        "curl https://api.stripe.com/v1/charges -u sk_test_x:",
    ),
)
CLOUDFLARE = vendor_pack(
    name="cdn.cloudflare",
    id="CD101",
    vendor="Cloudflare",
    what="zones, DNS records and other configuration through its API (wrangler's deletions of Workers, KV, R2 and D1 are the platform.cloudflare-workers pack's, on by default)",
    api=("api.cloudflare.com/client/v4/**",),
    must_match=(
        "curl -X DELETE https://api.cloudflare.com/client/v4/zones/023e1/dns_records/372e6",
        'curl -X DELETE "https://api.cloudflare.com/client/v4/zones/023e1" -H "Authorization: Bearer $CF"',
    ),
    must_not_match=("wrangler deploy", "curl https://api.cloudflare.com/client/v4/zones"),
)
FASTLY = vendor_pack(
    name="cdn.fastly",
    id="CD201",
    vendor="Fastly",
    what="services and the whole cache",
    commands=(command("fastly", "service delete"), command("fastly", "purge", requires=("--all",))),
    api=("api.fastly.com/**",),
    must_match=(
        "fastly service delete --service-id SU1Z0isxPaozGVKXdv0eY --force",
        "fastly purge --all -s SU1Z0",
        'curl -X DELETE https://api.fastly.com/service/SU1Z0 -H "Fastly-Key: $K"',
    ),
    must_not_match=("fastly service list", "fastly purge --key article-42 -s SU1Z0"),
)
SENDGRID = vendor_pack(
    name="email.sendgrid",
    id="EM101",
    vendor="SendGrid",
    what="templates, contacts, lists, API keys and sender identities",
    api=("api.sendgrid.com/v3/**",),
    must_match=(
        'curl -X DELETE https://api.sendgrid.com/v3/templates/d-1234 -H "Authorization: Bearer $SG"',
        'http DELETE api.sendgrid.com/v3/marketing/lists/42 Authorization:"Bearer $SG"',
    ),
    must_not_match=(
        'curl https://api.sendgrid.com/v3/templates -H "Authorization: Bearer $SG"',
        "curl -X POST https://api.sendgrid.com/v3/mail/send -d @mail.json",
    ),
)
MAILGUN = vendor_pack(
    name="email.mailgun",
    id="EM201",
    vendor="Mailgun",
    what="domains, routes, lists and suppressions",
    api=("api.mailgun.net/v3/**", "api.eu.mailgun.net/v3/**"),
    must_match=(
        'curl -s --user "api:$MG" -X DELETE https://api.mailgun.net/v3/domains/mg.example.com',
        'curl -X DELETE https://api.eu.mailgun.net/v3/lists/news@mg.example.com --user "api:$MG"',
    ),
    must_not_match=(
        'curl -s --user "api:$MG" https://api.mailgun.net/v3/domains',
        'curl -X POST https://api.mailgun.net/v3/mg.example.com/messages --user "api:$MG" -F to=a@b.c',
    ),
)
LAUNCHDARKLY = vendor_pack(
    name="flags.launchdarkly",
    id="FL101",
    vendor="LaunchDarkly",
    what="feature flags and projects",
    commands=(command("ldcli", "flags delete"), command("ldcli", "projects delete")),
    api=("app.launchdarkly.com/api/v2/**",),
    must_match=(
        "ldcli flags delete --project web --flag new-checkout",
        'curl -X DELETE https://app.launchdarkly.com/api/v2/flags/web/new-checkout -H "Authorization: $LD"',
    ),
    must_not_match=(
        "ldcli flags list --project web",
        'curl https://app.launchdarkly.com/api/v2/flags/web -H "Authorization: $LD"',
    ),
)
TWILIO = vendor_pack(
    name="messaging.twilio",
    id="MQ101",
    vendor="Twilio",
    what="phone numbers and messages",
    commands=(
        command("twilio", "phone-numbers:remove"),
        command("twilio", "api:core:messages:remove"),
        command("twilio", "api:core:incoming-phone-numbers:remove"),
    ),
    api=("api.twilio.com/**",),
    must_match=(
        "twilio phone-numbers:remove PN123",
        "curl -X DELETE https://api.twilio.com/2010-04-01/Accounts/AC1/IncomingPhoneNumbers/PN123.json -u AC1:tok",
    ),
    must_not_match=(
        "twilio phone-numbers:list",
        "curl https://api.twilio.com/2010-04-01/Accounts/AC1/Messages.json -u AC1:tok",
    ),
)
KAFKA = vendor_pack(
    name="messaging.kafka",
    id="MQ201",
    vendor="Kafka",
    what="topics and their messages",
    commands=(
        command(("kafka-topics", "kafka-topics.sh"), requires=("--delete",)),
        command(("kafka-delete-records", "kafka-delete-records.sh")),
    ),
    must_match=(
        "kafka-topics --bootstrap-server kafka:9092 --delete --topic orders",
        "kafka-topics.sh --delete --topic 'events.*' --bootstrap-server localhost:9092",
        "kafka-delete-records --bootstrap-server kafka:9092 --offset-json-file offsets.json",
    ),
    must_not_match=(
        "kafka-topics --bootstrap-server kafka:9092 --list",
        "kafka-topics --describe --topic orders --bootstrap-server kafka:9092",
    ),
    default=True,
    reason=_BROKER_REASON,
)
RABBITMQ = vendor_pack(
    name="messaging.rabbitmq",
    id="MQ301",
    vendor="RabbitMQ",
    what="queues, their messages and virtual hosts",
    commands=(
        *(
            command("rabbitmqctl", path)
            for path in ("delete_queue", "purge_queue", "delete_vhost", "reset", "force_reset")
        ),
        command("rabbitmqadmin", "delete queue"),
        command("rabbitmqadmin", "delete vhost"),
        command("rabbitmqadmin", "purge queue"),
    ),
    api=("*:15672/api/queues/**", "*:15672/api/vhosts/*"),
    must_match=(
        "rabbitmqctl purge_queue orders",
        "rabbitmqadmin delete queue name=orders",
        "curl -u guest:guest -X DELETE http://localhost:15672/api/queues/%2F/orders",
    ),
    must_not_match=("rabbitmqctl list_queues name messages", "rabbitmqadmin list queues"),
    default=True,
    reason=_BROKER_REASON,
)
NATS = vendor_pack(
    name="messaging.nats",
    id="MQ401",
    vendor="NATS JetStream",
    what="streams, key-value buckets and object stores with their messages",
    commands=(
        command("nats", "stream rm"),
        command("nats", "stream purge"),
        command("nats", "kv rm"),
        command("nats", "object rm"),
        command("nats", "consumer rm"),
    ),
    must_match=("nats stream rm ORDERS -f", "nats stream purge EVENTS --force", "nats kv rm sessions -f"),
    must_not_match=("nats stream ls", "nats stream info ORDERS", "nats kv get sessions user.42"),
    default=True,
    reason=_BROKER_REASON,
)
DATADOG = vendor_pack(
    name="monitoring.datadog",
    id="MO101",
    vendor="Datadog",
    what="monitors, dashboards and other configuration",
    api=(
        "api.datadoghq.com/api/**",
        "api.datadoghq.eu/api/**",
        "api.*.datadoghq.com/api/**",
        "api.ddog-gov.com/api/**",
    ),
    must_match=(
        'curl -X DELETE https://api.datadoghq.com/api/v1/monitor/123 -H "DD-API-KEY: $K"',
        'curl -X DELETE "https://api.us5.datadoghq.com/api/v1/dashboard/abc-def"',
    ),
    must_not_match=(
        'curl https://api.datadoghq.com/api/v1/monitor -H "DD-API-KEY: $K"',
        "curl -X POST https://api.datadoghq.com/api/v2/series -d @metrics.json",
    ),
)
PAGERDUTY = vendor_pack(
    name="monitoring.pagerduty",
    id="MO201",
    vendor="PagerDuty",
    what="services, schedules and escalation policies",
    api=("api.pagerduty.com/**",),
    must_match=(
        'curl -X DELETE https://api.pagerduty.com/services/PIJ90N7 -H "Authorization: Token token=$PD"',
        "curl --request DELETE https://api.pagerduty.com/schedules/PI7DH85",
    ),
    must_not_match=(
        'curl https://api.pagerduty.com/incidents -H "Authorization: Token token=$PD"',
        "curl -X POST https://events.pagerduty.com/v2/enqueue -d @event.json",
    ),
)
SENTRY = vendor_pack(
    name="monitoring.sentry",
    id="MO301",
    vendor="Sentry",
    what="releases, projects and issues",
    commands=(command("sentry-cli", "releases delete"),),
    api=("sentry.io/api/0/**", "*.sentry.io/api/0/**"),
    must_match=(
        "sentry-cli releases delete 1.2.3 -o acme -p web",
        'curl -X DELETE https://sentry.io/api/0/projects/acme/web/ -H "Authorization: Bearer $S"',
    ),
    must_not_match=("sentry-cli releases list -o acme -p web", "sentry-cli releases new 1.2.4"),
)
GRAFANA = vendor_pack(
    name="monitoring.grafana",
    id="MO401",
    vendor="Grafana",
    what="dashboards, data sources and folders",
    api=("*/api/dashboards/uid/*", "*/api/datasources/**", "*/api/folders/*"),
    must_match=(
        'curl -X DELETE http://grafana:3000/api/dashboards/uid/cIBgcSjkk -H "Authorization: Bearer $G"',
        "curl -X DELETE https://acme.grafana.net/api/datasources/uid/P8E80F9AEF21F6940",
    ),
    must_not_match=(
        "curl http://grafana:3000/api/dashboards/uid/cIBgcSjkk",
        "curl -X POST http://grafana:3000/api/dashboards/db -d @dash.json",
    ),
)
ALGOLIA = vendor_pack(
    name="search.algolia",
    id="SR101",
    vendor="Algolia",
    what="indices and their records",
    commands=(command("algolia", "indices delete"), command("algolia", "indices clear")),
    api=("*.algolia.net/1/indexes/**", "*.algolianet.com/1/indexes/**"),
    must_match=(
        "algolia indices delete products --confirm",
        'curl -X DELETE https://APPID-dsn.algolia.net/1/indexes/products -H "X-Algolia-API-Key: $K"',
    ),
    must_not_match=(
        "algolia indices list",
        'curl https://APPID-dsn.algolia.net/1/indexes/products/query -d \'{"query":"shoe"}\'',
    ),
)
ELASTICSEARCH = vendor_pack(
    name="search.elasticsearch",
    id="SR201",
    vendor="Elasticsearch or OpenSearch",
    what="indices and their documents",
    api=("*:9200/**", "*.es.*.cloud.es.io/**", "*.es.amazonaws.com/**", "*.aoss.amazonaws.com/**"),
    must_match=(
        "curl -XDELETE localhost:9200/_all",
        "curl -X DELETE 'http://es:9200/logs-2024.*'",
        "curl -X DELETE https://search-logs-abc.us-east-1.es.amazonaws.com/logs",
    ),
    must_not_match=(
        "curl localhost:9200/_cat/indices?v",
        "curl -X PUT localhost:9200/logs -H 'Content-Type: application/json' -d @mapping.json",
    ),
)
RESTIC = vendor_pack(
    name="backup.restic",
    id="BK101",
    vendor="restic",
    what="backup snapshots",
    commands=(command("restic", "forget", unless=("--dry-run",)), command("restic", "prune", unless=("--dry-run",))),
    must_match=("restic -r s3:s3.amazonaws.com/backups forget --keep-last 1 --prune", "restic prune"),
    must_not_match=("restic snapshots", "restic forget --keep-daily 7 --dry-run"),
)
BORG = vendor_pack(
    name="backup.borg",
    id="BK201",
    vendor="Borg",
    what="backup archives and repositories",
    commands=(command("borg", "delete", unless=("--dry-run",)), command("borg", "prune", unless=("--dry-run",))),
    must_match=("borg delete /backups/repo::2024-01-01", "borg prune --keep-daily 1 /backups/repo"),
    must_not_match=("borg list /backups/repo", "borg prune --dry-run --keep-daily 7 /backups/repo"),
)
CIRCLECI = vendor_pack(
    name="ci.circleci",
    id="CI101",
    vendor="CircleCI",
    what="contexts, their secrets and project settings",
    commands=(command("circleci", "context remove-secret"), command("circleci", "context delete")),
    api=("circleci.com/api/v2/**",),
    must_match=(
        "circleci context delete github acme deploy",
        'curl -X DELETE https://circleci.com/api/v2/project/gh/acme/web/envvar/AWS_KEY -H "Circle-Token: $T"',
    ),
    must_not_match=("circleci context list github acme", "circleci config validate"),
)
KONG = vendor_pack(
    name="gateway.kong",
    id="GW101",
    vendor="Kong",
    what="services, routes, plugins and consumers (the whole gateway configuration with `deck reset`)",
    commands=(command("deck", "gateway reset"), command("deck", "reset")),
    api=("*:8001/**", "*:8444/**"),
    must_match=("deck gateway reset --force", "curl -i -X DELETE http://localhost:8001/services/orders"),
    must_not_match=("deck gateway diff kong.yaml", "curl http://localhost:8001/services"),
)

VENDOR_PACKS = (
    HEROKU, VERCEL, NETLIFY, FLY, DIGITALOCEAN, STRIPE, CLOUDFLARE, FASTLY, SENDGRID, MAILGUN, LAUNCHDARKLY,
    TWILIO, KAFKA, RABBITMQ, NATS, DATADOG, PAGERDUTY, SENTRY, GRAFANA, ALGOLIA, ELASTICSEARCH, RESTIC, BORG,
    CIRCLECI, KONG,
)  # fmt: skip
