"""system.controls, the machine's record and watch turned off (SC003): the audit system, the system
log's daemons and the security agents (endpoint detection, antivirus, intrusion detection and
prevention) stopped, disabled, masked, unloaded from launchd or killed by name."""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg
from .._invocation import Found, command, option_value, pack_rule
from .processes import killed_by_listing, killed_by_name
from .service_stops import SERVICE_MANAGERS, stops_service

# The daemons that keep the system's log: with them stopped, nothing that follows is logged.
_SYSTEM_LOGGERS = (
    "systemd-journald", "systemd-journald.socket", "systemd-journald-dev-log.socket", "rsyslog", "syslog-ng", "syslog",
)  # fmt: skip

# Endpoint detection, antivirus and host intrusion detection and prevention agents, as their units are
# named: with them stopped nothing reports or stops what runs on the machine (CrowdStrike Falcon,
# SentinelOne, Microsoft Defender, Carbon Black, Elastic, Wazuh and OSSEC, osquery, Falco, ClamAV,
# Sophos, Trend Micro, Tanium, Qualys, Cortex XDR, fail2ban, CrowdSec). The vendors' names are patterns:
# packagers name the units differently (`crowdstrike-falcon-sensor`). The signature updater
# (clamav-freshclam) is stopped to run it by hand.
_SECURITY_AGENT_UNITS = (
    "falcond", "sentinelagent", "mdatp", "cbagentd", "cbdaemon",
    "elastic-agent", "elastic-endpoint", "ElasticEndpoint", "osqueryd",
    "falco", "falco-modern-bpf", "clamav-daemon", "clamd", "clamd@scan",
    "ds_agent", "taniumclient", "qualys-cloud-agent", "traps_pmd", "cortex-xdr", "fail2ban", "crowdsec",
    "*crowdstrike*", "*falcon-sensor*", "*sentinelone*", "*wazuh*", "*ossec*", "*carbonblack*", "*sophos*",
    "*trendmicro*", "*tanium*",
)  # fmt: skip
# The same agents' launchd jobs on macOS, by words of their labels and property lists' names.
_SECURITY_AGENT_JOBS = (
    "crowdstrike", "sentinelone", "wdav", "carbonblack", "sophos", "jamf.protect", "elastic.endpoint",
    "paloaltonetworks", "tanium", "qualys", "osquery", "wazuh",
)  # fmt: skip
# launchctl's verbs that stop a job, now or for good.
_LAUNCHCTL_STOPS = frozenset({"unload", "bootout", "remove", "disable", "kill"})


def _security_job_stopped(found: Found) -> Arg | None:
    """`launchctl unload|bootout|remove|disable|kill ... JOB` for a security agent's job."""
    operands = found.reading.operands
    if not operands or operands[0].value not in _LAUNCHCTL_STOPS:
        return None
    for word in operands[1:]:
        if any(agent in value.lower() for value in word.values for agent in _SECURITY_AGENT_JOBS):
            return word
    return None


# Their processes, and those of the audit system and the system log, by the names a kill by name matches.
_MONITOR_PROCESSES = (
    "falcon-sensor", "falcond", "sentinelone", "s1-agent", "s1-orchestrator", "wdavdaemon", "cbagentd", "cbdaemon",
    "elastic-agent", "elastic-endpoint", "wazuh-agentd", "wazuh-modulesd", "ossec-agentd", "osqueryd", "falco",
    "clamd", "sophos_threat_detector", "ds_agent", "taniumclient", "qualys-cloud-agent",
    "auditd", "rsyslogd", "syslog-ng", "systemd-journald",
)  # fmt: skip

AUDIT_OFF = pack_rule(
    id="SC003",
    name="audit-system-off",
    severity=Severity.HIGH,
    summary=(
        "Turns the audit system, the system log or a security agent off: `auditctl -e 0`, `auditctl -D`; "
        "auditd, journald, rsyslog or an endpoint detection, antivirus or intrusion detection agent "
        "(falcon-sensor, mdatp, Wazuh, osquery, ClamAV...) stopped, disabled or masked (`systemctl "
        "disable --now falcon-sensor`), or killed by name (`pkill -9 osqueryd`)."
    ),
    rationale=(
        "The audit system records who ran, read and changed what, and a security agent reports what "
        "runs; with them off nothing that follows is recorded or stopped, which is why an intrusion "
        "turns them off first. It blocks: no task needs them off."
    ),
    safer_alternative=(
        "Leave it on and read it (`auditctl -l`, `ausearch`); delete the one rule you mean "
        "(`auditctl -d ...`, `auditctl -D -k KEY`), or ask a human."
    ),
    matches=(
        command("auditctl", where=option_value("-e", "0")),
        command("auditctl", requires=("-D",), unless=("-k",)),
        command(SERVICE_MANAGERS, where=stops_service("auditd", *_SYSTEM_LOGGERS, *_SECURITY_AGENT_UNITS)),
        command("launchctl", where=_security_job_stopped),
        command(("pkill", "killall"), where=killed_by_name(*_MONITOR_PROCESSES)),
        command("kill", unless=("-l", "-L"), where=killed_by_listing(*_MONITOR_PROCESSES)),
    ),
    message="turns the audit system, the system log or a security agent off, or deletes the audit rules",
    must_match=(
        "auditctl -e 0",
        "sudo auditctl -D",
        "service auditd stop",
        "systemctl mask auditd.service",
        "systemctl mask systemd-journald",
        "service rsyslog stop",
        "systemctl disable --now falcon-sensor",
        "pkill -9 osqueryd",
        "systemctl disable --now crowdstrike-falcon-sensor",
        "sudo launchctl bootout system/com.crowdstrike.falcond",
    ),
    must_not_match=(
        "auditctl -l",
        "auditctl -s",
        "auditctl -e 2",
        "auditctl -D -k passwd-watch",
        "auditctl -w /etc/passwd -p wa -k passwd-watch",
        "systemctl status auditd",
        "systemctl restart rsyslog",
        "systemctl stop clamav-freshclam",
        "launchctl list | grep crowdstrike",
    ),
)
