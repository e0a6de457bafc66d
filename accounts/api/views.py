"""Registration, login, logout, the current player and the deletion of their account."""

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import AccessToken, User
from accounts.services import (
    access_token_issue,
    access_token_revoke,
    user_delete,
    user_login,
    user_register,
)
from accounts.throttles import LoginThrottle, PasswordConfirmationThrottle, RegisterThrottle
from accounts.usernames import (
    USERNAME_MAX_LENGTH,
    USERNAME_MIN_LENGTH,
    validate_username_to_look_up,
)
from belote_project.schema import invalid_request, problem, throttled
from belote_project.text_fields import TextField as _Text


class LoginSerializer(serializers.Serializer[Any]):
    # Any name an account may have (one renamed by a migration may be longer than a new
    # one); what can be no name is refused before anything looks it up.
    username = _Text(max_length=150, validators=[validate_username_to_look_up])
    password = _Text(max_length=128, trim_whitespace=False, write_only=True)


class RegisterSerializer(LoginSerializer):
    username = _Text(
        min_length=USERNAME_MIN_LENGTH,
        max_length=USERNAME_MAX_LENGTH,
        # Says in the schema what accounts/usernames.py checks: not only digits.
        validators=[RegexValidator(r"[^0-9]", "Use at least one letter.", "username_numeric")],
        help_text=(
            "Letters, digits and . @ + - _, not only digits. Unique whatever its case or "
            "width: `Alice`, `ALICE` and a full-width `alice` are one name."
        ),
    )


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")


def _token_response(token: str, status_code: int) -> Response:
    return Response(TokenSerializer({"token": token}).data, status=status_code)


class RegisterApi(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (RegisterThrottle,)

    @extend_schema(
        tags=["auth"],
        operation_id="register",
        summary="Create an account and log in",
        description=(
            "The password must also pass the server's password rules (length, not too "
            "common, not only digits, not too close to the username): a refusal is a 400 "
            "whose `errors` name the `password` field."
        ),
        request=RegisterSerializer,
        responses={
            201: TokenSerializer,
            **invalid_request(
                "Invalid fields (see `errors`: e.g. `username_taken`, `username_invalid`, "
                "a password rule), or a body that is not JSON."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        credentials = RegisterSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        user = user_register(**credentials.validated_data)
        return _token_response(access_token_issue(user=user), status.HTTP_201_CREATED)


class TokenApi(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (LoginThrottle,)

    @extend_schema(
        tags=["auth"],
        operation_id="log_in",
        summary="Log in: exchange username and password for a new token",
        request=LoginSerializer,
        responses={
            200: TokenSerializer,
            **problem(
                401,
                "InvalidCredentials",
                ["invalid_credentials"],
                "Unknown username or wrong password.",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        credentials = LoginSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        return _token_response(user_login(**credentials.validated_data), status.HTTP_200_OK)


class LogoutApi(APIView):
    @extend_schema(
        tags=["auth"],
        operation_id="log_out",
        summary="Revoke the token this request was made with",
        request=None,
        responses={204: OpenApiResponse(description="Logged out: the token no longer works.")},
    )
    def post(self, request: Request) -> Response:
        assert isinstance(request.auth, AccessToken)
        access_token_revoke(access_token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    @extend_schema_serializer(component_name="MeOutput")
    class OutputSerializer(serializers.ModelSerializer[User]):
        class Meta:
            model = User
            fields = ("id", "username", "date_joined")

    @extend_schema(
        tags=["me"],
        operation_id="get_me",
        summary="The signed-in player",
        responses={200: OutputSerializer},
    )
    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        return Response(self.OutputSerializer(request.user).data)


class MeDeletionApi(APIView):
    throttle_classes = (PasswordConfirmationThrottle,)

    @extend_schema_serializer(component_name="MeDeletionInput")
    class InputSerializer(serializers.Serializer[Any]):
        password = _Text(
            max_length=128,
            trim_whitespace=False,
            write_only=True,
            help_text="The account's current password, to confirm that its owner asks.",
        )

    @extend_schema(
        tags=["me"],
        operation_id="delete_me",
        summary="Delete the signed-in player's account",
        description=(
            "Deletes the person behind the account for good: the username (free to be "
            "registered again), the password and every token. Games the account played "
            "stay whole, their seats and moves under the pseudonym `deleted#<id>`; in a "
            "game still on, a `basic` bot takes the seat over (a `seat_absent` event, "
            "reason `left`). "
            "A POST rather than a DELETE because it carries the password in its body."
        ),
        request=InputSerializer,
        responses={
            204: OpenApiResponse(description="Deleted: the token no longer works."),
            **problem(403, "WrongPassword", ["wrong_password"], "Not this account's password."),
            **throttled("Too many confirmations for this account: wait `retry_after` seconds."),
        },
    )
    def post(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        confirmation = self.InputSerializer(data=request.data)
        confirmation.is_valid(raise_exception=True)
        user_delete(user=request.user, **confirmation.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)
