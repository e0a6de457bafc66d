# One image for the web server, the Celery worker and the beat scheduler.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BELOTE_VAR_DIR=/app/var

WORKDIR /app
RUN useradd --create-home --uid 10001 belote

COPY pyproject.toml README.md manage.py ./
COPY belote_project ./belote_project
COPY accounts ./accounts
COPY games ./games
RUN pip install .

# Static files (admin, Swagger UI) are collected at build time and served by WhiteNoise.
RUN DEBUG=true python manage.py collectstatic --noinput \
    && chown -R belote:belote /app/var

USER belote
EXPOSE 8000
CMD ["gunicorn", "-c", "python:belote_project.server", "belote_project.asgi:application", \
     "--bind", "0.0.0.0:8000", \
     "--graceful-timeout", "35", "--access-logfile", "-"]
