"""The command-line tools of hosting platforms and of the services teams run
(payments, CDNs, e-mail, feature flags, messaging, monitoring, search, backup,
CI, API gateways): their global options and the subcommands the vendor packs
judge, declared by path."""

from __future__ import annotations

from ._grammar import GO_FLAGS, Syntax, flag, valued
from ._program import HelpForms, Program
from ._tree import leaf, tree

# cobra/yargs/oclif style: clusters, `--flag=value`, flags anywhere; `--help` anywhere prints help instead.
_ANYWHERE = Syntax()
_HELP = HelpForms(("--help",))
_YES = (flag("-y", "--yes"), flag("--confirm"), flag("-f", "--force"))


def _cli(names: tuple[str, ...], *paths: str, options: tuple[str, ...] = (), flags: tuple[str, ...] = ()) -> Program:
    """A vendor CLI: value-taking global options read anywhere, its subcommand paths (each
    taking the confirmation flags, and `flags`), and `--help`."""
    return Program(
        names,
        syntax=_ANYWHERE,
        options=tuple(valued(option) for option in options),
        global_options_anywhere=True,
        help_forms=_HELP,
        subcommands=tree(*paths, options=(*_YES, *(flag(spelling) for spelling in flags))),
    )


VENDOR_PROGRAMS: tuple[Program, ...] = (
    # Hosting platforms.
    Program(("heroku",), syntax=_ANYWHERE, options=(valued("-a", "--app"),), global_options_anywhere=True, help_forms=_HELP,
            subcommands=(*tree("apps:destroy", "pg:reset", "pg:backups:restore", "pg:copy", "addons:destroy", "apps:info", "run", "run:detached", options=_YES),
                         # psql on the app's database: its statements are the database packs' (audit.databases.CLIENTS).
                         *tree(leaf("pg:psql", valued("-c", "--command"), valued("-f", "--file"), valued("-r", "--remote"),
                                    valued("--credential"))))),
    _cli(("vercel",), "remove|rm", "env rm|remove", "domains rm|remove", "project rm|remove", "list|ls", options=("--scope", "-t", "--token")),
    _cli(("netlify",), "sites:delete", "env:unset", "status", options=("--site",)),
    _cli(("fly", "flyctl"), "apps destroy", "volumes destroy", "postgres detach", "apps list", "ssh console", options=("-a", "--app", "-C", "--command")),
    _cli(("doctl",), "compute droplet delete|rm", "databases delete|rm", "kubernetes cluster delete|rm", "compute volume delete|rm", "apps delete|rm", "compute droplet list|ls", options=("--context", "-t", "--access-token")),
    _cli(("railway",), "delete", "down", "volume delete", "environment delete", "up", "status", options=("-s", "--service", "-e", "--environment", "-p", "--project")),
    _cli(("render",), "services delete", "services list", "deploys create", options=("-o", "--output")),
    # AWS SAM: `sam delete` deletes the application's CloudFormation stack (the iac.stacks pack's).
    _cli(("sam",), "delete", "deploy", "build", "validate", options=("--stack-name", "--region", "--profile", "--config-env"), flags=("--no-prompts",)),
    # Services.
    _cli(("stripe",), "customers delete", "products delete", "prices update", "subscriptions cancel", "webhook_endpoints delete", "customers list", options=("--api-key",), flags=("--live",)),
    # D1's SQL (`d1 execute`): the statements are the database packs' (audit.databases.CLIENTS), with --remote only.
    Program(("wrangler",), syntax=_ANYWHERE, options=(valued("--name"), valued("-c", "--config"), valued("-e", "--env")), global_options_anywhere=True,
            help_forms=_HELP,
            subcommands=tree("delete", "kv namespace delete", "kv:namespace delete", "r2 bucket delete", "r2 object delete", "d1 delete", "queues delete",
                             "vectorize delete", "pages project delete", "deploy", "dev",
                             leaf("d1 execute", valued("--command"), valued("--file"), valued("--persist-to"), flag("--remote"), flag("--local"),
                                  flag("--preview"), flag("--json"), operands=("DATABASE",)), options=_YES)),
    _cli(("fastly",), "service delete", "purge", "service list", options=("-s", "--service-id", "--token"), flags=("--all",)),
    _cli(("ldcli",), "flags delete", "projects delete", "flags list", options=("--project", "--access-token")),
    _cli(("twilio",), "phone-numbers:remove", "api:core:messages:remove", "api:core:incoming-phone-numbers:remove", "phone-numbers:list", options=("-p", "--profile")),
    _cli(("algolia",), "indices delete", "indices clear", "indices list", options=("--profile",)),
    _cli(("sentry-cli",), "releases delete", "releases list", options=("-o", "--org", "-p", "--project", "--auth-token")),
    _cli(("circleci",), "context remove-secret", "context delete", "context list", options=("--token",)),
    _cli(("deck",), "gateway reset", "reset", "gateway sync", "gateway diff", options=("--kong-addr",)),
    Program(("restic",), options=(valued("-r", "--repo"), valued("--password-file")), global_options_anywhere=True,
            subcommands=tree(leaf("forget", flag("--prune"), flag("-n", "--dry-run"), valued("--keep-last"), valued("--keep-daily")),
                             leaf("prune", flag("-n", "--dry-run")), leaf("snapshots"))),
    Program(("borg",), subcommands=tree(leaf("delete", flag("-n", "--dry-run"), flag("--force")), leaf("prune", flag("-n", "--dry-run"), valued("--keep-daily")), leaf("list"))),
    # Kafka's and RabbitMQ's administration tools.
    Program(("kafka-topics", "kafka-topics.sh"), syntax=GO_FLAGS,
            options=(flag("--delete"), flag("--list"), flag("--describe"), flag("--create"), valued("--topic"),
                     valued("--bootstrap-server"), valued("--zookeeper"))),
    Program(("rabbitmqctl",), options=(valued("-n", "--node"), valued("-p", "--vhost")), global_options_anywhere=True,
            subcommands=tree("delete_queue", "purge_queue", "delete_vhost", "reset", "force_reset", "list_queues")),
    Program(("rabbitmqadmin",), options=(valued("-H", "--host"), valued("-V", "--vhost"), valued("-u", "--username")),
            global_options_anywhere=True,
            subcommands=tree("delete queue", "delete exchange", "delete vhost", "purge queue", "list queues")),
    Program(("kafka-delete-records", "kafka-delete-records.sh"), syntax=GO_FLAGS,
            options=(valued("--bootstrap-server"), valued("--offset-json-file"), valued("--command-config"))),
    _cli(("nats",), "stream rm", "stream purge", "stream ls", "stream info", "kv rm", "kv get", "object rm", "consumer rm",
         options=("-s", "--server", "--creds", "--context")),
    # Other clouds and the orchestration stores (the cloud.infrastructure and cloud.providers modules' packs).
    _cli(("linode-cli", "linode"), "linodes delete", "volumes delete", "lke cluster-delete", "databases mysql-delete", "databases postgresql-delete",
         "obj rb", "domains delete", "nodebalancers delete", "linodes list", options=("--as-user",)),
    _cli(("oci",), "os bucket delete", "os object bulk-delete", "compute instance terminate", "db autonomous-database delete", "db system terminate",
         "ce cluster delete", "iam compartment delete", "bv volume delete", "os bucket list", options=("--profile", "--region", "--config-file"), flags=("--empty",)),
    _cli(("ibmcloud",), "resource service-instance-delete", "is instance-delete", "is volume-delete", "ks cluster rm", "cos bucket-delete",
         "resource service-instances", options=("-r", "-g")),
    _cli(("vultr-cli",), "instance delete", "database delete", "kubernetes delete", "block-storage delete", "object-storage delete", "bare-metal delete",
         "instance list", "database list"),
    _cli(("scw",), "instance server delete", "instance server terminate", "instance volume delete", "rdb instance delete", "k8s cluster delete",
         "object bucket delete", "instance server list", options=("-p", "--profile")),
    _cli(("upstash",), "redis delete", "kafka cluster delete", "kafka topic delete", "redis list", options=("--email", "--api-key")),
    _cli(("hcloud",), "server delete", "volume delete", "primary-ip delete", "floating-ip delete", "server list", options=("--context",)),
    _cli(("openstack",), "server delete", "volume delete", "volume snapshot delete", "volume backup delete", "image delete", "project delete", "stack delete", "server list",
         options=("--os-cloud", "--os-project-name", "--os-region-name", "--os-auth-url"), flags=("--purge", "--wait")),
    _cli(("etcdctl",), "del", "get", "put", options=("--endpoints", "--cacert", "--cert", "--key", "--user", "-w", "--write-out"), flags=("--prefix", "--from-key", "--prev-kv")),
    # Go's flag package: one dash, one option per word (`-purge`, `-recurse`).
    Program(("nomad",), syntax=GO_FLAGS, options=(valued("-address"), valued("-region"), valued("-namespace"), valued("-token")), global_options_anywhere=True,
            subcommands=tree(leaf("job stop", flag("-purge"), flag("-yes"), flag("-detach"), flag("-global")), leaf("stop", flag("-purge"), flag("-yes"), flag("-detach")),
                             leaf("namespace delete"), leaf("job status"), leaf("job run", flag("-detach")))),
    Program(("consul",), syntax=GO_FLAGS, options=(valued("-http-addr"), valued("-token"), valued("-datacenter"), valued("-namespace")), global_options_anywhere=True,
            subcommands=tree(leaf("kv delete", flag("-recurse"), valued("-cas"), valued("-modify-index")), leaf("kv get", flag("-recurse")), leaf("kv put"), leaf("snapshot restore"), leaf("acl bootstrap"))),
)  # fmt: skip
