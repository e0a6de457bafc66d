"""The benchmark server's URLs: the product's, plus the yardstick endpoint."""

from django.urls import URLPattern, URLResolver, path

from belote_project import urls as product
from bench.ceiling import CeilingInsertApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("api/v1/bench/insert", CeilingInsertApi.as_view(), name="bench-insert"),
    *product.urlpatterns,
]

handler400 = product.handler400
handler403 = product.handler403
handler404 = product.handler404
handler500 = product.handler500
