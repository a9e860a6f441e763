#!/usr/bin/env bash
# Start (or check) the local PostgreSQL and Redis that CI and `make test-services` use.
# Usage: scripts/services.sh start|status
set -euo pipefail

pg_up() { pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

case "${1:-status}" in
  start)
    if ! pg_up; then
      echo "starting PostgreSQL"
      pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n1)" main start
      for _ in $(seq 30); do pg_up && break; sleep 1; done
    fi
    if ! redis_up; then
      echo "starting Redis"
      mkdir -p /var/lib/redis /var/log/redis
      redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
        --dir /var/lib/redis --logfile /var/log/redis/ci.log
      for _ in $(seq 30); do redis_up && break; sleep 1; done
    fi
    pg_up || { echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }
    redis_up || { echo "Redis is not answering on 127.0.0.1:6379" >&2; exit 1; }
    echo "PostgreSQL and Redis are up"
    ;;
  status)
    pg_up && echo "PostgreSQL: up" || echo "PostgreSQL: down"
    redis_up && echo "Redis: up" || echo "Redis: down"
    ;;
  *) echo "usage: $0 start|status" >&2; exit 2 ;;
esac
