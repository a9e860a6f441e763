FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml ./
COPY games ./games
COPY scoring ./scoring
COPY gupai_site ./gupai_site
RUN pip install --no-cache-dir .
COPY . .
RUN DEBUG=0 SECRET_KEY=build-only python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["gunicorn", "gupai_site.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
