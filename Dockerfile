FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# GNU gettext's msgfmt, for compilemessages (the .mo files are built, not committed); pg_dump and
# pg_restore for `manage.py backup` / `restore` (gupai_site/backups.py).
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends gettext postgresql-client \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml ./
COPY games ./games
COPY scoring ./scoring
COPY gupai_site ./gupai_site
RUN pip install --no-cache-dir .
COPY . .
# The compressed, hashed static files and their manifest (staticfiles/staticfiles.json), built
# into the image: without them the site still works, on the plain files, and `check` warns.
RUN DEBUG=0 SECRET_KEY=build-only ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput
RUN DEBUG=0 SECRET_KEY=build-only ALLOWED_HOSTS=localhost python manage.py compilemessages
EXPOSE 8000
# Workers, timeouts, the access log (scorer tokens masked) and proxy trust: gupai_site/gunicorn.conf.py.
CMD ["gunicorn", "-c", "gupai_site/gunicorn.conf.py", "gupai_site.asgi:application"]
