package guard

import "testing"

// TestBuiltinSecretStores pins commands that print a secret kept outside
// a file (git's objects, archives, secret managers, password stores),
// and the commands beside them that show none.
func TestBuiltinSecretStores(t *testing.T) {
	stores, files := "sensitive-reads-secret-stores", "sensitive-reads-files"
	checkBuiltins(t, []bypassCase{
		{`git show $(git rev-parse HEAD:.env)`, Deny, files},
		{`git cat-file blob "$(git rev-parse HEAD:.env)"`, Deny, files},
		{`git archive HEAD | tar -xO .env`, Deny, files},
		{`unzip -p backup.zip .env`, Deny, files},
		{`kubectl get secret x -o yaml`, Deny, stores},
		{`kubectl get secrets x -ojson`, Deny, stores},
		{`kubectl get -o jsonpath='{.data.pw}' secret/x`, Deny, stores},
		{`vault kv get secret/x`, Deny, stores},
		{`vault read secret/x`, Deny, stores},
		{`op read op://vault/item/password`, Deny, stores},
		{`op item get x --reveal`, Deny, stores},
		{`aws secretsmanager get-secret-value --secret-id x`, Deny, stores},
		{`aws ssm get-parameter --name x --with-decryption`, Deny, stores},
		{`gcloud secrets versions access latest --secret=x`, Deny, stores},
		{`az keyvault secret show --vault-name v --name x`, Deny, stores},
		{`doppler secrets get X`, Deny, stores},
		{`security find-generic-password -w -s x`, Deny, stores},
		{`pass show x`, Deny, stores},
		{`gopass show x`, Deny, stores},
		{`sops -d secrets.enc.yaml`, Deny, stores},
		{`kubectl get secret x`, Allow, ""},
		{`kubectl describe secret x`, Allow, ""},
		{`kubectl get pods -o yaml`, Allow, ""},
		{`vault status`, Allow, ""},
		{`vault kv list secret/`, Allow, ""},
		{`op whoami`, Allow, ""},
		{`aws secretsmanager list-secrets`, Allow, ""},
		{`gcloud secrets list`, Allow, ""},
		{`security find-generic-password -s x`, Allow, ""},
		{`git rev-parse HEAD`, Allow, ""},
		{`git rev-parse --show-toplevel`, Allow, ""},
		{`tar -xOf r.tgz config.json`, Allow, ""},
	})
}
