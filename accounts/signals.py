"""What accounts tells the rest of the project, which it does not know, about accounts."""

from django.dispatch import Signal

#: Sent with `user` inside the transaction that deletes the account, before its personal
#: data goes. Other apps let go of the account here (games hands its seats to bots); a
#: receiver that raises undoes the whole deletion.
account_deleting = Signal()
