// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// Source: #/ (run `npm run gen` after editing the spec)

export interface paths {
    "/v1/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a team and its admin
         * @description Creates a team and its admin account and returns a bearer token for the admin. Requires the
         *     server's signup key in `X-Ferry-Signup-Key`. Email addresses are unique on the server.
         */
        post: operations["signup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange credentials for a bearer token
         * @description Checks an email and password and returns a JWT valid for 24 hours, with the user and team it
         *     belongs to. Attempts are limited before the password is checked: after 10 failed logins
         *     for one email, or 100 attempts from one client address (the server's default), within 15
         *     minutes, further attempts (with the right password too) get `429` until that window ends. A
         *     successful login clears the email's failures. Unknown emails are limited like known ones.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the team's apps
         * @description Lists the apps of the caller's team, ordered by slug. A team user whose app permissions are
         *     limited to an allowed list sees only those apps.
         */
        get: operations["listApps"];
        put?: never;
        /**
         * Create an app
         * @description Creates an app in the caller's team. The slug is unique on the whole server and cannot be
         *     changed later; it appears in every update URL of the app.
         */
        post: operations["createApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List versions of all apps
         * @description Lists the versions of every app the caller can see, newest first, filtered by app, channel,
         *     platform, architecture and publication state.
         */
        get: operations["listVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an app
         * @description Deletes an app with all its versions and their files. This cannot be undone.
         */
        delete: operations["deleteApp"];
        options?: never;
        head?: never;
        /**
         * Update an app
         * @description Changes the name, description or `private` flag of an app. Members you leave out keep their
         *     value. Making an app private invalidates nothing already downloaded, but from then on its
         *     artifacts need a token or a signed link.
         */
        patch: operations["updateApp"];
        trace?: never;
    };
    "/v1/apps/{app}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        /**
         * Search one app's versions
         * @description Lists the versions of one app, newest first (by semver precedence), filtered by channel,
         *     platform, architecture, publication state and criticality.
         */
        get: operations["searchAppVersions"];
        put?: never;
        /**
         * Upload a version with its artifacts
         * @description Creates a version of an app for one channel, platform and architecture and stores its files.
         *     Send one or more `files`; the package type of each artifact is derived from its extension,
         *     and the server computes the size, SHA-256 and SHA-512. The combination of version, channel,
         *     platform and architecture is unique within an app. Uploads are limited to 2 GiB per request.
         *     A `.nupkg` goes into Squirrel.Windows' `RELEASES` and Velopack's feed as a bare path, and
         *     both read the version from its name, so its name may hold only letters, digits, `.`, `_`,
         *     `+` and `-`, and must read `<id>-<version>[-full|-delta].nupkg` with this upload's version;
         *     otherwise the upload is refused with a `400` naming the file and the rule. Other names are
         *     carried URL-encoded and need no such care.
         *
         *     Ferry reads who signed each `.exe` and `.msi` (its Authenticode publisher: the signer
         *     certificate's subject CN and O) and the macOS app in a `.zip` (the Team ID of its main
         *     executable's code signature; an ad-hoc signature is unsigned). A published version signed by another publisher than the newest
         *     published version of the same app, channel and platform, or unsigned after a signed one,
         *     is refused with a `409` naming both, unless the upload declares the change with
         *     `signerChange=true` (a bridge release). Unsigned uploads stay allowed while the app has
         *     never been signed. The comparison and the version's recording hold a lock per app,
         *     channel and platform, so of two such uploads sent at once only the first recorded passes.
         */
        post: operations["uploadVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a version
         * @description Deletes a version and all its artifacts. Clients are no longer offered it.
         */
        delete: operations["deleteVersion"];
        options?: never;
        head?: never;
        /**
         * Edit a version
         * @description Changes a version's changelog, publication state, criticality, intermediate flag or rollout
         *     percentage. Members you leave out keep their value. Publishing sets `publishedAt`; the
         *     version number, channel, platform and architecture cannot change (upload a new version).
         *     Publishing a draft whose signer differs from the newest published version's is refused
         *     with a `409` unless its upload declared the change (`signerChange`).
         *
         *     `ramp` replaces a hand-set percentage with steps (for example 1 % → 10 % → 50 % → 100 %, each
         *     after a number of minutes); the version's `rolloutPercentage` then follows the clock, and
         *     the update check computes it at each request. `healthPolicy` sets when health reports
         *     pause the rollout (default: more than 20 % failed once 20 devices reported); a version
         *     the new policy fails on the reports already counted is paused by this edit.
         */
        patch: operations["updateVersion"];
        trace?: never;
    };
    "/v1/apps/{app}/versions/{version}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a rollout
         * @description Stops offering the version to devices that do not run it yet: while paused it counts as
         *     rolled out to 0 %, and a ramp's clock stops. Devices already on it keep it. Ferry pauses a
         *     version itself when its health reports fail too often (`rollout.paused.automatic`).
         *     Pausing a paused version keeps the first pause and its reason.
         */
        post: operations["pauseVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/versions/{version}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a rollout
         * @description Lifts a pause or a pull. A ramp continues from the step it had reached: the paused time
         *     does not count towards its steps. Health reports received before the resume no longer
         *     count towards an automatic pause. Resuming a version that is neither paused nor pulled
         *     changes nothing.
         */
        post: operations["resumeVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/versions/{version}/pull": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pull a version
         * @description Withdraws a published version: no device is offered it any more (nor is it the
         *     [latest build](/docs/api/info/fetch-latest-build) any more), and devices that run it
         *     are offered the newest good version below it (published, not paused, not pulled, rolled
         *     out to 100 %) where their updater installs an older version: Ferry's JSON (`downgrade:
         *     true`), Squirrel.Windows, Squirrel.Mac, electron-updater with `allowDowngrade`. Tauri
         *     installs it only with a custom `version_comparator`. A newer good version, when there is
         *     one, is offered instead. [Resume](/docs/api/apps/resume-version) undoes a pull.
         */
        post: operations["pullVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/versions/{version}/adoption": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        /**
         * Adoption of a version, per day
         * @description How one version spread, per UTC day: devices an update check offered it to, downloads of
         *     its artifacts (whole files, counted in batches, so a few seconds behind), devices that
         *     reported `installed` or `failed` (their latest report, by its day), and distinct devices
         *     whose update checks said they run it (telemetry; 0 when telemetry is off). Days without
         *     any of these are left out. At most 92 days; without `from` and `to`, the 30 days up to today.
         */
        get: operations["getVersionAdoption"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/versions/{version}/artifacts/{artifact}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete one artifact of a version
         * @description Deletes one file of a version. A version keeps at least one artifact: deleting the last one
         *     is refused with 409; delete the version instead.
         */
        delete: operations["deleteArtifact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/versions/{version}/artifacts/{artifact}/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
            };
            cookie?: never;
        };
        /**
         * Download an artifact
         * @description Streams an artifact. Artifacts of public apps need no credentials. Artifacts of private apps
         *     need either a bearer token with the `apps.download` permission or a signed link: the
         *     `expires` and `signature` query parameters that Ferry puts into the `downloadUrl` of private
         *     artifacts (valid for 15 minutes). Supports `Range` requests for resumable downloads, and several
         *     ranges in one request (a `multipart/byteranges` answer, up to 1,000 ranges).
         *
         *     Artifacts never change under their URL, so published artifacts of public apps are sent with
         *     `Cache-Control: public, max-age=31536000, immutable` (a CDN may keep them), drafts and
         *     private apps' artifacts with `Cache-Control: private, no-store`. The `ETag` is the quoted
         *     SHA-256; `If-None-Match` with it answers `304`. With object storage and
         *     `FERRY_DOWNLOAD_MODE=redirect`, an allowed download answers `302` to a presigned URL of the
         *     object store instead (same file name and `Cache-Control` on the file).
         */
        get: operations["downloadArtifact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List channels
         * @description Lists the team's channels, ordered by name.
         */
        get: operations["listChannels"];
        put?: never;
        /**
         * Create a channel
         * @description Adds a channel to the team's catalog. Names are unique within a team.
         */
        post: operations["createChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The channel's id.
                 * @example ch_5t1b
                 */
                id: components["parameters"]["ChannelId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a channel
         * @description Deletes a channel. A channel that still has versions is refused with 409.
         */
        delete: operations["deleteChannel"];
        options?: never;
        head?: never;
        /**
         * Rename or describe a channel
         * @description Changes a channel's name or description. Versions follow the rename.
         */
        patch: operations["updateChannel"];
        trace?: never;
    };
    "/v1/platforms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List platforms
         * @description Lists the team's platforms with their default updater format, ordered by name.
         */
        get: operations["listPlatforms"];
        put?: never;
        /**
         * Create a platform
         * @description Adds a platform with its default updater format. Names are unique within a team.
         */
        post: operations["createPlatform"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platforms/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The platform's id.
                 * @example pl_3w8d
                 */
                id: components["parameters"]["PlatformId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a platform
         * @description Deletes a platform. A platform that still has versions is refused with 409.
         */
        delete: operations["deletePlatform"];
        options?: never;
        head?: never;
        /**
         * Change a platform
         * @description Renames a platform or changes its default updater format.
         */
        patch: operations["updatePlatform"];
        trace?: never;
    };
    "/v1/archs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List architectures
         * @description Lists the team's architectures, ordered by name.
         */
        get: operations["listArchs"];
        put?: never;
        /**
         * Create an architecture
         * @description Adds a CPU architecture to the team's catalog. Names are unique within a team.
         */
        post: operations["createArch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/archs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The architecture's id.
                 * @example ar_2c7v
                 */
                id: components["parameters"]["ArchId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an architecture
         * @description Deletes an architecture. One that still has versions is refused with 409.
         */
        delete: operations["deleteArch"];
        options?: never;
        head?: never;
        /**
         * Rename an architecture
         * @description Renames an architecture. Versions follow the rename.
         */
        patch: operations["updateArch"];
        trace?: never;
    };
    "/v1/team/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List team users
         * @description Lists the users of the admin's team (not the admin), ordered by email.
         */
        get: operations["listTeamUsers"];
        put?: never;
        /**
         * Add a team user
         * @description Adds a user to the admin's team with an initial password and a permission matrix. Grants you
         *     leave out are not given.
         */
        post: operations["createTeamUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/team/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The team user's id.
                 * @example usr_3h8c
                 */
                id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a team user
         * @description Removes a user from the team. Their tokens stop working at once.
         */
        delete: operations["deleteTeamUser"];
        options?: never;
        head?: never;
        /**
         * Change a team user
         * @description Changes a team user's name, password or permissions. `permissions` replaces the whole
         *     matrix; members you leave out keep their value.
         */
        patch: operations["updateTeamUser"];
        trace?: never;
    };
    "/v1/team/admin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the admin's password
         * @description The team admin changes their own password. Tokens issued before the change stop working;
         *     log in again. Each check of `currentPassword` counts against the email's login limit, so
         *     a stolen token cannot be used to guess the password. Two changes sent at once against the
         *     same current password: one lands, the other answers 409.
         */
        patch: operations["updateAdminPassword"];
        trace?: never;
    };
    "/v1/team/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API tokens
         * @description Lists API tokens newest first, never their secret: the team admin sees every token of the
         *     team, a team user their own. `permissions` are the grants the token was created with; it
         *     acts with those its creator still holds. `lastUsedAt` is updated at most once a minute.
         *     An API token cannot call this operation.
         */
        get: operations["listApiTokens"];
        put?: never;
        /**
         * Create an API token
         * @description Creates a long-lived token for a machine, such as a CI job that uploads versions, so that it
         *     needs no password. Send it as `Authorization: Bearer ferry_…`. The `token` member is in this
         *     response only: Ferry stores a SHA-256 hash of it and cannot show it again.
         *
         *     A token holds the grants in `permissions` (leave it out for none) and never more than its
         *     creator: asking for a grant you do not hold (or for more apps or catalog entries than yours
         *     allow) answers 403 naming it. On every request the token acts with its grants intersected
         *     with its creator's current ones, so a creator who loses a grant takes it from their tokens,
         *     and removing the creator removes their tokens. A token never acts as the team admin, even
         *     one the admin created: the admin's operations, and creating, listing or revoking tokens,
         *     need a login. Tokens survive password changes; revoke them with
         *     [revokeApiToken](/docs/api/team/revoke-token).
         *
         *     `expiresAt`, when given, must lie in the future and at most 10 years ahead; without it the
         *     token works until it is revoked. Names are unique in a team, so the list tells tokens
         *     apart: a name the team already holds answers 409.
         */
        post: operations["createApiToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/team/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The API token's id.
                 * @example tok_4Rk9Wq2n
                 */
                id: components["parameters"]["ApiTokenId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API token
         * @description Revokes a token: its next request answers 401. The team admin can revoke every token of the
         *     team, a team user their own; another user's token answers 404. An API token cannot call
         *     this operation.
         */
        delete: operations["revokeApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description Lists the team's webhook subscriptions, oldest first, never their secret. A team has at most
         *     50. Only the team admin manages webhooks (they see events of every app of the team).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook subscription
         * @description Subscribes `url` to events of the team's apps (of the apps listed in `apps`, when given).
         *     Each event is POSTed as JSON signed per the Standard Webhooks specification (headers
         *     `webhook-id`, `webhook-timestamp`, `webhook-signature`) with the subscription's `secret`,
         *     which is in this response only (`whsec_…`). Deliveries are retried with growing delays for
         *     about two days; see [Webhooks](/docs/webhooks).
         *
         *     `events` lists the event types to send, or is `["*"]` for every event type, including
         *     those later Ferry releases add; `*` with other types answers 400 naming `/events`.
         *
         *     The URL must be `http` or `https` and resolve only to public addresses: loopback, private,
         *     CGNAT, link-local (including 169.254.169.254) and other reserved addresses answer 400 naming
         *     `/url`, unless the operator sets `FERRY_WEBHOOK_ALLOW_PRIVATE=true`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        /**
         * Get a webhook subscription
         * @description One subscription of the team, without its secret; `disabledReason` says why Ferry disabled it.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Deletes the subscription with its delivery log; pending deliveries are dropped.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Update a webhook subscription
         * @description Changes the members sent. `enabled: true` enables a subscription Ferry disabled (its
         *     pending deliveries go out again); `apps: null` covers every app of the team. The secret
         *     stays; a new URL is checked as at creation.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        /**
         * List a subscription's deliveries
         * @description The delivery log, newest first: each event sent to this subscription, its attempts, the
         *     last response status or error, and when the next attempt is due (`null` once it succeeded
         *     or failed for good).
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
                /**
                 * @description The delivery's id, from the delivery log.
                 * @example dlv_2Kd8Rt4Y
                 */
                delivery: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Queues the same event (same `webhook-id` and body, freshly signed) to the subscription
         *     again as a new delivery, due now, whatever became of the first.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a `webhook.test` event to this subscription, whatever events it asks for, and
         *     answers with its delivery. A disabled subscription answers 409: enable it first.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Talk to the server's MCP endpoint
         * @description The Model Context Protocol (Streamable HTTP, protocol revision `2025-11-25`) for AI agents,
         *     stateless: every POST carries one JSON-RPC message and gets its answer as JSON, so any
         *     instance behind a load balancer can answer it. Without a token the tools are the docs
         *     (`search_docs`, `read_page`, `list_operations`, `describe_operation`); with a bearer
         *     token (an API token or a session) there is also one tool per API operation the token's
         *     permissions allow, run as that token (writes are audited as it). `tools/call` messages are
         *     limited per token (`FERRY_MCP_CALLS_PER_MINUTE`). A browser `Origin` other than the
         *     server's own is refused, as a guard against DNS rebinding. JSON-RPC batches (gone from
         *     the protocol since `2025-06-18`), a `Mcp-Session-Id` header, an `Accept` header without
         *     both `application/json` and `text/event-stream`, and a message the transport does not
         *     take are refused with `400`.
         */
        post: operations["callMcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness and dependency status
         * @description Reports whether the server is up and whether its database and file storage answer. Returns
         *     200 while the server can serve requests (also when `degraded`) and 503 when it cannot.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the audit log
         * @description Lists who changed what, newest first. Every successful write through the API adds one entry:
         *     the actor (a user, an API token with its creator, or `system` for what Ferry did on its own,
         *     such as pausing a ramp after failing health reports), the operation, its target, the fields
         *     it changed, the time and the client address (behind `FERRY_TRUSTED_PROXIES`, the address
         *     those proxies forwarded). A refused or failed write adds nothing. Update checks, downloads
         *     and devices' health reports are not management writes and are not listed. Secrets never
         *     appear in `changes`: passwords, token values and keys are left out.
         *
         *     The team admin sees every entry of the team. A team user (or their API token) sees the
         *     entries of the apps they may read, and their own entries; team-wide entries by others
         *     (catalog, users, tokens) are the admin's. Entries are kept for `FERRY_AUDIT_RETENTION_DAYS`
         *     (default 365) and cannot be changed or deleted through the API.
         */
        get: operations["listAuditEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who am I
         * @description Returns the user the token belongs to, their team, role and effective permissions.
         */
        get: operations["whoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        /**
         * Check for an update
         * @description Answers an installed app: is there a newer published version for this channel, platform and
         *     architecture? Returns **200** with the version to install, or **204 No Content** when the
         *     app is up to date (the convention of Electron's built-in updater).
         *
         *     - If a published **intermediate** version lies above the client's version and below the
         *       newest one, the lowest such version is offered first; the client updates again afterwards.
         *     - `critical` is true when the offered version, or any version skipped on the way to it, is
         *       critical.
         *     - A version with `rolloutPercentage` below 100 is offered only to devices whose bucket
         *       (a hash of `X-Ferry-Device-Id` and the version) falls inside the percentage. Without a
         *       device id the client's IP address is hashed instead.
         *
         *     Artifact `downloadUrl`s of private apps are signed links valid for 15 minutes.
         */
        get: operations["checkForUpdate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/update/explain": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        /**
         * Explain an update check
         * @description Answers, for one device and one update check, which version Ferry offers and why: every
         *     version of the app is listed with the rule that keeps it out or lets it in (channel,
         *     platform and architecture, draft, pulled, not newer, behind an intermediate version,
         *     paused, the device's rollout bucket against the current percentage). The decision comes
         *     from the same planner as the [update check](/docs/api/info/latest), so both always agree.
         *     Takes the update check's parameters, with the device id as a query parameter.
         */
        get: operations["explainUpdate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/rules": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        /**
         * List an app's holds, pins and targeting rules
         * @description The app's rules, oldest first, expired ones included (`expiresAt` in the past: they no
         *     longer act). Update checks apply them as [Targeting, pins and holds](/docs/targeting)
         *     describes; the [explain endpoint](/docs/api/info/explain-update) names the rule that
         *     decided. Those who may edit the app see and set its rules.
         */
        get: operations["listRules"];
        put?: never;
        /**
         * Create a hold, pin or targeting rule
         * @description Adds a rule to the app; update checks apply it at once (the app's cached answers are
         *     dropped, in front too). `kind` says which:
         *     - `hold`: nothing newer than the device runs is offered, to `cohort` or (without one) to
         *       every device, until `expiresAt`. `reason` is required.
         *     - `pin`: devices of `cohort` are offered only versions within `range` (a semver range such
         *       as `1.4.x` or `<2.0.0`).
         *     - `target`: `version` is offered only to devices that a targeting rule of it admits: in
         *       `cohorts`, in `devices` (device ids), and meeting every one of `conditions` on the
         *       attributes the device declares; a device in `deny` is never admitted. Given several
         *       targeting rules, a version goes to the devices any one admits.
         *
         *     A manual check (`X-Ferry-Manual: true`) skips a ramp's percentage, never a rule. An app
         *     has at most 200 rules (409 beyond). A member that does not fit the kind answers 400
         *     naming it.
         */
        post: operations["createRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/rules/{rule}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The rule's id.
                 * @example rul_4Tn8Vq2K
                 */
                rule: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a rule
         * @description Removes the rule; update checks stop applying it at once (a lifted hold offers again).
         */
        delete: operations["deleteRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/health-reports": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report an update's outcome
         * @description Called by an installed app after an update: `installed` once the new version runs,
         *     `failed` with a short reason when it could not install or start it. A report counts only
         *     from a device Ferry offered the version: an update check that sent the same id in
         *     `X-Ferry-Device-Id` (electron-updater's `x-user-staging-id` and Velopack's `stagingId`
         *     count too) and was answered with this version. Anything else is answered
         *     `counted: false` and stored nowhere. Each device counts once per version (its latest
         *     report wins); the device id and the client address are stored only as keyed hashes. One
         *     address counts for at most `maxReportsPerAddress` reports of each outcome, and failures
         *     must come from `minAddresses` addresses. When the counted failed share passes the
         *     version's health policy (`maxFailureRatio`, once at least `minReports` reports count),
         *     Ferry pauses the version's rollout itself, logs it, and drops the app's cached update
         *     answers (a report that pauses nothing invalidates nothing, hence
         *     `x-ferry-invalidates: none`). A device may send 10 reports a minute, an address 60 per
         *     app; more get 429.
         */
        post: operations["reportUpdateOutcome"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/latest": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        /**
         * Permanent link to the newest build
         * @description Redirects (302) to the download of the newest published artifact of a package type for a
         *     channel, platform and architecture. Link to it from your website's download button: the URL
         *     never changes. Intermediate versions and rollouts do not apply; for private apps the
         *     redirect target is a signed link.
         */
        get: operations["getLatestBuild"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/squirrel/{channel}/{arch}/RELEASES": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: string;
            };
            cookie?: never;
        };
        /**
         * Squirrel.Windows RELEASES feed
         * @description The `RELEASES` file Squirrel.Windows reads: one line per published `.nupkg` artifact (full and
         *     delta) of the app on the `windows` platform, `SHA1 filename size`, oldest first. A version
         *     rolled out to fewer than 100 % carries ` # N%` (Squirrel stages the device itself); versions
         *     at 0 % are left out. Point `Squirrel.UpdateManager` at `<base>/v1/apps/{app}/squirrel/{channel}/{arch}`
         *     and it will request `RELEASES` and then the packages, whose file names resolve relative to the feed.
         *
         *     Squirrel adds `?id=…&localVersion=…&arch=…` to the request. With `localVersion` the feed ends at
         *     the version Ferry offers that client, so an intermediate version is installed before anything
         *     above it.
         */
        get: operations["getSquirrelReleases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/squirrel/{channel}/{arch}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: string;
                /**
                 * @description A package file name listed in the feed's `RELEASES`.
                 * @example harbor-notes-1.4.0-full.nupkg
                 */
                file: string;
            };
            cookie?: never;
        };
        /**
         * Squirrel.Windows package
         * @description Squirrel.Windows resolves the file names in `RELEASES` relative to the feed, so after reading
         *     `…/squirrel/{channel}/{arch}/RELEASES` it requests `…/squirrel/{channel}/{arch}/<file name>`.
         *     Ferry answers with a redirect (302) to the published `.nupkg` artifact of that name on the
         *     `windows` platform; for private apps the target is a signed link valid for 15 minutes.
         */
        get: operations["getSquirrelPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/squirrel-mac/{channel}/{arch}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        /**
         * Squirrel.Mac update (Electron autoUpdater)
         * @description The answer Electron's built-in `autoUpdater` expects on macOS (Squirrel.Mac): **200** with
         *     `{ url, name, notes, pub_date }`, where `url` is the `.zip` artifact of the offered version on the
         *     `darwin` platform, or **204** when there is no update. A version without a `.zip` is not offered.
         *     Set the feed with `autoUpdater.setFeedURL({ url: '<base>/v1/apps/{app}/squirrel-mac/{channel}/{arch}?version=' + app.getVersion() })`.
         */
        get: operations["getSquirrelMacUpdate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/electron-updater/{channel}/{platform}/{arch}/{version}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
                /**
                 * @description The version the app runs (semver); put `app.getVersion()` into the feed URL.
                 * @example 1.2.3
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description The channel file electron-updater asks for: `latest.yml`, `latest-mac.yml`, `latest-linux.yml`,
                 *     `latest-linux-arm64.yml` or `<channel>….yml`. The answer depends only on the path before it.
                 * @example latest.yml
                 */
                file: string;
            };
            cookie?: never;
        };
        /**
         * electron-updater channel file (generic provider)
         * @description The `latest.yml` electron-builder would have written, generated from the stored artifacts of
         *     the version Ferry offers this client: `version`, `files` (`url`, base64 `sha512`, `size`), `path`,
         *     `sha512`, `releaseDate`, `releaseNotes`, `stagingPercentage` (when rolled out to fewer than
         *     100 %; electron-updater stages the device itself) and `critical` (when true). Installable files
         *     come first in the order electron-updater looks for them (zip, exe, AppImage, then dmg, msi,
         *     deb, rpm, snap, pkg). With no update the file names the client's own version and no files,
         *     which electron-updater reads as up to date. File URLs of public apps point to
         *     [`…/files/{version}/{file}`](/docs/api/info/electron-updater-file), where electron-updater also
         *     finds the blockmaps of a differential download; private apps' are signed download links.
         *
         *     Point the generic provider at the folder:
         *     `autoUpdater.setFeedURL({ provider: 'generic', url: '<base>/v1/apps/{app}/electron-updater/{channel}/{platform}/{arch}/' + app.getVersion() })`.
         *     electron-updater sends `x-user-staging-id` on every request; telemetry counts it as the device id
         *     when `X-Ferry-Device-Id` is absent.
         */
        get: operations["getElectronUpdaterFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/tauri/{channel}/{target}/{arch}/{currentVersion}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Tauri's `{{target}}`: `windows`, `darwin` or `linux`; the Ferry platform of the same name.
                 * @example darwin
                 */
                target: "windows" | "darwin" | "linux";
                /**
                 * @description Tauri's `{{arch}}`, mapped to a Ferry architecture: `x86_64` → `x64`, `aarch64` → `arm64`, `i686` → `ia32`, `armv7` → `armv7l`.
                 * @example aarch64
                 */
                arch: "x86_64" | "aarch64" | "i686" | "armv7";
                /**
                 * @description Tauri's `{{current_version}}`.
                 * @example 1.2.3
                 */
                currentVersion: components["schemas"]["Semver"];
            };
            cookie?: never;
        };
        /**
         * Tauri v2 update
         * @description The dynamic-server answer of Tauri v2's updater plugin: **200** with `version`, `notes`,
         *     `pub_date`, `url` and `signature`, or **204** when there is no update. Configure
         *     `plugins.updater.endpoints` as
         *     `<base>/v1/apps/{app}/tauri/{channel}/{{target}}/{{arch}}/{{current_version}}`.
         *
         *     Only a bundle uploaded in the same request as its signature file `<bundle>.sig` (which Tauri's
         *     bundler writes next to it) is offered; `signature` is that file's content. When the version
         *     Ferry offers has no signed bundle, the answer is 204. The extra member `critical` is readable in
         *     the app as `update.rawJson.critical`.
         */
        get: operations["getTauriUpdate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/electron-updater/{channel}/{platform}/{arch}/files/{version}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
                /**
                 * @description The published version the file belongs to.
                 * @example 1.4.0
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description A file name of that version, or `<file name>.blockmap`.
                 * @example HarborNotes-Setup-1.4.0.exe.blockmap
                 */
                file: string;
            };
            cookie?: never;
        };
        /**
         * electron-updater file and blockmap
         * @description The file URLs of the [channel file](/docs/api/info/electron-updater) of a public app point
         *     here, with the version in the path as in a static electron-builder folder, so
         *     electron-updater finds the blockmaps for a differential download: it requests
         *     `<file URL>.blockmap` for the new version and the same URL with the new version replaced by
         *     its own for the installed one. Ferry answers with the bytes of the artifact of that name,
         *     `Range` requests of one or several ranges included (`206`), from the published version on this
         *     channel, platform and architecture. Upload each `<installer>.blockmap` electron-builder
         *     writes beside its installer. Private apps' channel files link to signed downloads instead,
         *     so electron-updater downloads them in full.
         */
        get: operations["getElectronUpdaterFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/velopack/{channel}/{platform}/{arch}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
                /**
                 * @description `releases.<velopack channel>.json` (the feed; the Velopack channel in the name is not read,
                 *     the Ferry channel is the path's), or a `.nupkg` file name the feed lists.
                 * @example releases.win.json
                 */
                file: string;
            };
            cookie?: never;
        };
        /**
         * Velopack feed and packages
         * @description What Velopack's `UpdateManager` reads from an HTTP source. Point it at
         *     `<base>/v1/apps/{app}/velopack/{channel}/{platform}/{arch}`: it requests
         *     `releases.<channel>.json?localVersion=…&id=…&stagingId=…` and then each package by its
         *     `FileName`, relative to that folder.
         *
         *     The feed lists, as `Assets`, the full package of the version Ferry offers this client and
         *     the delta packages (`-delta.nupkg`) of every published version above the client's up to
         *     that one, so Velopack applies deltas when it can. Velopack installs the newest `Full` asset:
         *     with no update the list is empty. `localVersion` decides the offer like `version` in the
         *     other protocols; `stagingId` (a per-install id Velopack sends) buckets the device for
         *     partial rollouts when `X-Ferry-Device-Id` is absent. A package name redirects (302) to the
         *     published `.nupkg` artifact of that name, a signed link for private apps.
         */
        get: operations["getVelopackFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/update-keys": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        /**
         * Devices per updater key
         * @description For a key rotation: the app's Tauri and Sparkle keys with their roles, and for each, how
         *     many devices ran a version whose signature that key verified at upload, on the latest UTC
         *     day with telemetry for the app. A device on the bridge release (signed with the old key,
         *     carrying the new one) counts for the old key, so a new key's figure is a lower bound of the
         *     devices that trust it. Versions uploaded before Ferry recorded the key count for none.
         *     Returns 404 `telemetry-disabled` when the server runs with `FERRY_TELEMETRY=off`.
         */
        get: operations["getUpdateKeyDevices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/sparkle/{channel}/{platform}/{arch}/appcast.xml": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name (`darwin` for Sparkle, `windows` for WinSparkle).
                 * @example darwin
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        /**
         * Sparkle / WinSparkle appcast
         * @description An RSS 2.0 appcast with the `sparkle:` namespace, as Sparkle 2 (macOS) and WinSparkle
         *     (Windows) read it. It holds one `item` for the version Ferry offers this client, or none when
         *     it is up to date: `title`, `pubDate`, `sparkle:version` and `sparkle:shortVersionString` (the
         *     version), `description` (the changelog), `sparkle:minimumSystemVersion` (the version's
         *     `minimumSystemVersion`, when set), `sparkle:criticalUpdate` with `sparkle:version` set to the highest
         *     critical version up to the offered one (Sparkle treats the update as critical for apps
         *     below it), and an `enclosure` with `url`, `length`, `type` and `sparkle:edSignature`. The
         *     enclosure is the archive uploaded with an EdDSA signature file `<archive>.edsig` (the
         *     output of Sparkle's `sign_update`), else the first zip, dmg, tar.gz or pkg. Binary deltas
         *     uploaded as `<App><version>-<from>.delta` become `sparkle:deltas` enclosures with
         *     `sparkle:deltaFrom`. Set the feed URL at run time with `version` (`feedURLString(for:)` in
         *     Sparkle, `win_sparkle_set_appcast_url` in WinSparkle). A partial rollout is decided by
         *     Ferry, with the device bucketed by `X-Ferry-Device-Id` (Sparkle's `httpHeaders`) or the
         *     client's address; items carry no `sparkle:channel`, because the path already names the
         *     Ferry channel.
         */
        get: operations["getSparkleAppcast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/cohorts/{cohort}/electron-updater/{channel}/{platform}/{arch}/{version}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The device's cohort (an organisation, tenant or licence id the app chooses), for clients that only fetch a URL.
                 * @example acme-corp
                 */
                cohort: components["schemas"]["CohortKey"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
                /**
                 * @description The version the app runs (semver); put `app.getVersion()` into the feed URL.
                 * @example 1.2.3
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description The channel file electron-updater asks for: `latest.yml`, `latest-mac.yml`, `latest-linux.yml`,
                 *     `latest-linux-arm64.yml` or `<channel>….yml`. The answer depends only on the path before it.
                 * @example latest.yml
                 */
                file: string;
            };
            cookie?: never;
        };
        /**
         * electron-updater channel file for a cohort
         * @description The [electron-updater channel file](/docs/api/info/electron-updater) for a device of
         *     `cohort`, named in the feed URL: the app's pins, holds and targeting rules for that cohort
         *     apply (see [Targeting, pins and holds](/docs/targeting)). Point the generic provider at
         *     `<base>/v1/apps/{app}/cohorts/{cohort}/electron-updater/{channel}/{platform}/{arch}/` + `app.getVersion()`.
         */
        get: operations["getElectronUpdaterCohortFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/cohorts/{cohort}/sparkle/{channel}/{platform}/{arch}/appcast.xml": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The device's cohort (an organisation, tenant or licence id the app chooses), for clients that only fetch a URL.
                 * @example acme-corp
                 */
                cohort: components["schemas"]["CohortKey"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name (`darwin` for Sparkle, `windows` for WinSparkle).
                 * @example darwin
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        /**
         * Sparkle appcast for a cohort
         * @description The [Sparkle appcast](/docs/api/info/sparkle) for a device of `cohort`, named in the feed
         *     URL: the app's pins, holds and targeting rules for that cohort apply (see
         *     [Targeting, pins and holds](/docs/targeting)).
         */
        get: operations["getSparkleCohortAppcast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/repository-key.asc": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        /**
         * Repository signing key (OpenPGP)
         * @description The ASCII-armored OpenPGP public key that signs the app's apt and rpm repositories
         *     (`InRelease`, `Release.gpg`, `repomd.xml.asc`). Ferry makes the key (Ed25519, OpenPGP v4) the
         *     first time any repository or this URL of the app is requested; it never changes afterwards.
         *     Its private half is stored encrypted and no endpoint returns it. Save the key as
         *     `/etc/apt/keyrings/<app>.asc` and name it in `signed-by=`, or give its URL as `gpgkey=` in a
         *     `.repo` file. Repositories are served for public apps only: a private app answers `404`.
         */
        get: operations["getRepositoryKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/apt/dists/{channel}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description `InRelease` (clear-signed), `Release`, or `Release.gpg` (its detached signature).
                 * @example InRelease
                 */
                file: "InRelease" | "Release" | "Release.gpg";
            };
            cookie?: never;
        };
        /**
         * apt repository Release
         * @description The `Release` file of the app's apt repository for one channel (the suite and codename are the
         *     channel's name, the one component is `main`), plain, clear-signed as `InRelease`, or its detached
         *     signature `Release.gpg`, signed with the app's repository key (`GET /v1/apps/{app}/repository-key.asc`).
         *     It lists `main/binary-<arch>/Packages`, `Packages.gz` and `Packages.xz` (`Packages.xz` not in the
         *     in-browser sandbox) for amd64, arm64 and every architecture an uploaded `.deb` declares, each with
         *     its size and SHA-256, and says `Acquire-By-Hash: yes`: apt then fetches each index by its hash
         *     (`GET …/main/binary-<arch>/by-hash/SHA256/{hash}`), which keeps answering for 24 hours after a
         *     newer `Release` replaces the index, so a client that read this file before an upload still gets
         *     the indexes it lists. Point apt at it with
         *     `deb [signed-by=/etc/apt/keyrings/<app>.asc] <base>/v1/apps/<app>/apt <channel> main`.
         *
         *     The index lists the `.deb` files of published versions on the channel that are neither pulled
         *     nor paused and rolled out to 100 %: a repository gives every machine the same answer, so a
         *     partial rollout waits until it reaches 100 %. Every answer is built from one read of the
         *     database, and `Date` is the latest change of the versions listed. Repositories are served for
         *     public apps only.
         */
        get: operations["getAptRelease"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/apt/dists/{channel}/main/{binaryArch}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description `binary-` and a Debian architecture the `Release` file lists.
                 * @example binary-amd64
                 */
                binaryArch: string;
                /**
                 * @description `Packages`, or compressed: `Packages.gz` (gzip) or `Packages.xz` (xz).
                 * @example Packages
                 */
                file: "Packages" | "Packages.gz" | "Packages.xz";
            };
            cookie?: never;
        };
        /**
         * apt repository Packages index
         * @description One architecture's `Packages` index: a stanza per listed `.deb` (its own control fields, plus
         *     `Filename`, `Size`, `SHA1`, `SHA256` and `SHA512`), packages of architecture `all` in every
         *     architecture's index. The same versions as `Release` lists, rendered the same way, so the
         *     hashes there match these bytes. `Filename` points into the repository's `pool/`. The in-browser
         *     sandbox has no xz compressor: there `Packages.xz` is not listed and answers `404`.
         */
        get: operations["getAptPackages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/apt/dists/{channel}/main/{binaryArch}/by-hash/SHA256/{hash}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description `binary-` and a Debian architecture the `Release` file lists.
                 * @example binary-amd64
                 */
                binaryArch: string;
                /**
                 * @description The SHA-256 (64 lower-case hex digits) that a `Release` lists for one of the architecture's indexes.
                 * @example 3f0a1c7e0d2f6a84e0b5a41f1f5ce3c8ad1b5e20c8b3a4e0f07d0f4c1a2b3c4d
                 */
                hash: string;
            };
            cookie?: never;
        };
        /**
         * apt repository index by hash
         * @description An index file (`Packages`, `Packages.gz` or `Packages.xz`) of one architecture by its SHA-256,
         *     as apt fetches it when `Release` says `Acquire-By-Hash: yes`. Each index a `Release` listed is
         *     stored with its hash and answers here while a `Release` lists it and for 24 hours after a newer
         *     one replaces it (a version published, pulled, paused or reaching 100 %): a client that read
         *     `Release` just before an upload still gets the bytes that `Release` promised, where the plain
         *     `Packages` path would already serve the new index and fail apt's hash check. A hash that no
         *     `Release` listed in that time answers `404`.
         */
        get: operations["getAptIndexByHash"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/apt/pool/{artifact}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
                /**
                 * @description The artifact's file name, as `Filename` in `Packages` gives it.
                 * @example harbor-notes_1.4.0_amd64.deb
                 */
                file: string;
            };
            cookie?: never;
        };
        /**
         * apt repository package file
         * @description A `.deb` that a `Packages` index lists, streamed like `GET …/artifacts/{artifact}/download`
         *     (ranges, `ETag`, `Cache-Control: public, max-age=31536000, immutable`, or `302` to object
         *     storage with `FERRY_DOWNLOAD_MODE=redirect`). A package of a version that is a draft or pulled
         *     is not served here.
         */
        get: operations["getAptPackageFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/rpm/{channel}/repodata/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description `repomd.xml`, its detached signature `repomd.xml.asc`, or one of the gzip-compressed metadata files it lists.
                 * @example repomd.xml
                 */
                file: "repomd.xml" | "repomd.xml.asc" | "primary.xml.gz" | "filelists.xml.gz" | "other.xml.gz";
            };
            cookie?: never;
        };
        /**
         * rpm repository metadata
         * @description The rpm-md metadata of the app's rpm repository for one channel, as dnf reads it: `repomd.xml`
         *     lists `primary.xml.gz`, `filelists.xml.gz` and `other.xml.gz` with their SHA-256 (compressed and
         *     open); `repomd.xml.asc` is its detached signature by the app's repository key. The packages are
         *     the `.rpm` files of published versions on the channel that are neither pulled nor paused and
         *     rolled out to 100 %, read from each package's header at upload. Use
         *     `baseurl=<base>/v1/apps/<app>/rpm/<channel>` with `repo_gpgcheck=1`. Repositories are served for
         *     public apps only.
         */
        get: operations["getRpmMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/rpm/{channel}/packages/{artifact}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
                /**
                 * @description The artifact's file name, as `location` in `primary.xml` gives it.
                 * @example harbor-notes-1.4.0-1.x86_64.rpm
                 */
                file: string;
            };
            cookie?: never;
        };
        /**
         * rpm repository package file
         * @description An `.rpm` that `primary.xml` lists, streamed like `GET …/artifacts/{artifact}/download`
         *     (ranges, `ETag`, long-lived `Cache-Control`, or `302` to object storage in redirect mode). A
         *     package of a version that is a draft or pulled is not served here.
         */
        get: operations["getRpmPackageFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/tuf/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        /**
         * Signed update metadata (TUF)
         * @description One file of the app's TUF repository (The Update Framework, consistent snapshots), as a TUF
         *     client such as `tuf-js` reads it with this path as its metadata base URL: `N.root.json`
         *     (each root version, signed offline by the team), `timestamp.json`, `N.snapshot.json` and
         *     `N.targets.json`; `root.json`, `snapshot.json` and `targets.json` name the newest.
         *     `online-key.json` is the server's public ed25519 key, which a root must give the snapshot
         *     and timestamp roles. Targets name artifacts by their download path below
         *     `/v1/apps/{app}/versions/` (`<versionId>/artifacts/<artifactId>/download`), so a client
         *     sets that as its target base URL without hash prefixes.
         *
         *     Ferry signs snapshot and timestamp itself: reading `timestamp.json` signs a new one when
         *     half of its lifetime (`FERRY_TUF_TIMESTAMP_SECONDS`) has passed. Served for public apps
         *     only; see [Signed update metadata](/docs/signed-metadata).
         */
        get: operations["getTufMetadata"];
        put?: never;
        /**
         * Store signed root or targets metadata
         * @description Stores a root or targets file the team signed offline (`ferry tuf init`, `ferry publish
         *     --tuf-key`); the server never sees the keys that sign them.
         *
         *     `root.json`: the app's first root (version 1, signed by its own root threshold), or the
         *     next version signed by the threshold of the current root and of itself. Its snapshot and
         *     timestamp roles must hold exactly the server's online key (`online-key.json`) with
         *     threshold 1, and that key may sign nothing else.
         *
         *     `targets.json`: the next targets version, signed by the threshold of keys the current root
         *     gives the targets role. Each target's path names an artifact of the app
         *     (`<versionId>/artifacts/<artifactId>/download`) whose stored length and hashes (`sha256`
         *     required, `sha512` optional) it must match. Ferry then signs a new snapshot and timestamp.
         *     A file signed by too few keys, naming bytes the server does not hold or already expired
         *     answers `400` naming the member at fault; a version other than the next answers `409`.
         */
        post: operations["publishTufMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/msix/{channel}/{arch}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        /**
         * MSIX update (Electron autoUpdater)
         * @description The JSON Electron's built-in `autoUpdater` reads when the app runs as an MSIX package
         *     (Electron 39 and later, on Windows): **200** with `{ url, name, notes, pub_date }`, or
         *     **204** when there is no update. Electron sends `Accept: application/json`, then `HEAD` to
         *     `url`, and refuses an update whose final URL does not end in `.msix` or `.msixbundle`, so
         *     `url` is the [MSIX package](/docs/api/info/msix-package) path ending in the file's name (a
         *     signed link for private apps). The version offered is the one Ferry decides for the
         *     `windows` platform: partial rollouts bucket the device by `X-Ferry-Device-Id` (Electron's
         *     `setFeedURL({ headers })`) or the client's address, pulls and pauses apply. A version
         *     without an `.msix` or `.msixbundle` artifact is not offered. A client on a pulled version is
         *     offered the newest good version below it; Windows installs a lower package version only
         *     when the app set `allowAnyVersion: true`. Set the feed with
         *     `autoUpdater.setFeedURL({ url: '<base>/v1/apps/{app}/msix/{channel}/{arch}?version=' + app.getVersion() })`.
         */
        get: operations["getMsixUpdate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/msix/{channel}/{arch}/app.appinstaller": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        /**
         * App Installer file (.appinstaller)
         * @description An App Installer file (schema namespace `http://schemas.microsoft.com/appx/appinstaller/2018`)
         *     for sideloading a public app's MSIX on Windows: open it with
         *     `ms-appinstaller:?source=<this URL>` or download and open it, and Windows installs the
         *     package and later checks this same URL (the file's `Uri`, query included) for updates. It
         *     names the newest version on this channel and `windows`/architecture that every device may
         *     run (published, neither paused nor pulled, rolled out to 100 %) and that has an `.msix`
         *     (`MainPackage`) or `.msixbundle` (`MainBundle`). Its `Name`, `Publisher`, `Version` and
         *     `ProcessorArchitecture` are read from the package's own `AppxManifest.xml`
         *     (`AppxBundleManifest.xml`), because App Installer requires them to match exactly; the
         *     file's `Version` is the package's. `UpdateSettings` come from the query parameters. Private
         *     apps have no App Installer file: App Installer cannot send credentials.
         */
        get: operations["getMsixAppInstaller"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{app}/msix/files/{version}/{artifact}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
                /**
                 * @description The artifact's file name, ending in `.msix` or `.msixbundle`.
                 * @example HarborNotes-1.4.0-x64.msix
                 */
                file: string;
            };
            cookie?: never;
        };
        /**
         * MSIX package
         * @description The bytes of a published `.msix` or `.msixbundle` artifact, at a path that ends in its file
         *     name: Electron's MSIX updater refuses a package URL whose path ends otherwise, so this path
         *     streams the file even where other downloads redirect to object storage
         *     (`FERRY_DOWNLOAD_MODE=redirect`). `Range` requests are answered like
         *     [artifact downloads](/docs/api/apps/download). A private app's package needs the `expires` and
         *     `signature` of its signed download link, which the [MSIX update](/docs/api/info/msix) answer carries.
         */
        get: operations["getMsixPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/telemetry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Update-check telemetry
         * @description Update checks that carried a device id (`X-Ferry-Device-Id`, or electron-updater's
         *     `x-user-staging-id`), counted per app, client version, channel, platform, architecture and UTC
         *     day, with the number of distinct devices in each group that day. Only the caller's team's apps
         *     (and, for a team user limited to some apps, those apps). Counts reach this endpoint within
         *     seconds; the server keeps no IP addresses and stores device ids only as a per-day keyed hash.
         *     Returns 404 `telemetry-disabled` when the server runs with `FERRY_TELEMETRY=off`.
         */
        get: operations["getTelemetry"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "version.uploaded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * version.uploaded
         * @description A version was uploaded (published or not). `data.version` is the version as stored
         *     after the upload; `actor` is the person, or the owner of the API token, who uploaded it.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "version.uploaded",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "version": {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "2.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "published": false,
                     *           "paused": null,
                     *           "pulled": null
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin",
                     *           "tokenId": "tok_9Kd2"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookVersionEvent"] & {
                        /** @enum {string} */
                        type?: "version.uploaded";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "version.published": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * version.published
         * @description A version was published: update checks may offer it now (on a ramp, to its share of
         *     devices). Publishing a version already published sends nothing.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "version.published",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "version": {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "2.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "published": true,
                     *           "paused": null,
                     *           "pulled": null
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin",
                     *           "tokenId": "tok_9Kd2"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookVersionEvent"] & {
                        /** @enum {string} */
                        type?: "version.published";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "version.unpublished": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * version.unpublished
         * @description A version was unpublished: update checks no longer offer it.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "version.unpublished",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "version": {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "2.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "published": false,
                     *           "paused": null,
                     *           "pulled": null
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin",
                     *           "tokenId": "tok_9Kd2"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookVersionEvent"] & {
                        /** @enum {string} */
                        type?: "version.unpublished";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "version.ramp_step": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * version.ramp_step
         * @description A running ramp reached a step: `percentage` of devices are offered the version from now
         *     on. Sent once per step, when the webhook worker passes after the step began.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "version.ramp_step",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "version": {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "2.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "published": true,
                     *           "paused": null,
                     *           "pulled": null
                     *         },
                     *         "step": 1,
                     *         "percentage": 10,
                     *         "actor": null
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookRampStepEvent"] & {
                        /** @enum {string} */
                        type?: "version.ramp_step";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "version.ramp_holding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * version.ramp_holding
         * @description A gated ramp holds: its next step is due, but the step in force lacks the evidence its
         *     gate asks for. Sent once per hold; a `version.paused` with `automatic: true` follows if
         *     the hold reaches its deadline.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "version.ramp_holding",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "version": {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "2.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "published": true,
                     *           "paused": null,
                     *           "pulled": null
                     *         },
                     *         "step": 0,
                     *         "percentage": 1,
                     *         "holding": {
                     *           "step": 1,
                     *           "since": "2025-03-14T09:26:53Z",
                     *           "deadline": "2025-03-15T09:26:53Z"
                     *         },
                     *         "evidence": {
                     *           "installs": 12,
                     *           "minInstalls": 50,
                     *           "reports": 12,
                     *           "failed": 0,
                     *           "failureRatio": 0,
                     *           "maxFailureRatio": 0.05,
                     *           "progress": "12 of 50 installs reported"
                     *         },
                     *         "actor": null
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookRampHoldingEvent"] & {
                        /** @enum {string} */
                        type?: "version.ramp_holding";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "version.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * version.paused
         * @description A version's rollout was paused: by a person (`actor` set), by health reports, or by a
         *     gated ramp's hold reaching its deadline (`actor` is `null` and
         *     `data.version.paused.automatic` is `true`). Pausing a paused version sends nothing.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "version.paused",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "version": {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "2.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "published": true,
                     *           "paused": {
                     *             "at": "2025-03-14T09:26:53Z",
                     *             "reason": "Crash reports from 2.4.0",
                     *             "automatic": false
                     *           },
                     *           "pulled": null
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin",
                     *           "tokenId": "tok_9Kd2"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookVersionEvent"] & {
                        /** @enum {string} */
                        type?: "version.paused";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "version.resumed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * version.resumed
         * @description A paused rollout was resumed; a ramp continues from where it paused.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "version.resumed",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "version": {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "2.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "published": true,
                     *           "paused": null,
                     *           "pulled": null
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin",
                     *           "tokenId": "tok_9Kd2"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookVersionEvent"] & {
                        /** @enum {string} */
                        type?: "version.resumed";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "version.pulled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * version.pulled
         * @description A version was pulled: devices that installed it are offered the version before it.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "version.pulled",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "version": {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "2.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "published": true,
                     *           "paused": null,
                     *           "pulled": {
                     *             "at": "2025-03-14T09:26:53Z",
                     *             "reason": "Data loss on upgrade"
                     *           }
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin",
                     *           "tokenId": "tok_9Kd2"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookVersionEvent"] & {
                        /** @enum {string} */
                        type?: "version.pulled";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "token.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * token.created
         * @description An API token was created. The event names the token, never its secret.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "token.created",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "token": {
                     *           "id": "tok_9Kd2",
                     *           "name": "ci",
                     *           "createdBy": "usr_4Fq9"
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookTokenEvent"] & {
                        /** @enum {string} */
                        type?: "token.created";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "token.revoked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * token.revoked
         * @description An API token was revoked; requests with it answer 401 from now on.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "token.revoked",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "token": {
                     *           "id": "tok_9Kd2",
                     *           "name": "ci",
                     *           "createdBy": "usr_4Fq9"
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookTokenEvent"] & {
                        /** @enum {string} */
                        type?: "token.revoked";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "rule.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * rule.created
         * @description A hold, pin or targeting rule was added to an app: update checks it covers answer by it
         *     from now on (cached answers of the app are purged).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "rule.created",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "rule": {
                     *           "id": "rul_3Wn7",
                     *           "kind": "pin",
                     *           "cohort": "acme-corp",
                     *           "range": "1.4.x",
                     *           "version": null,
                     *           "cohorts": null,
                     *           "devices": null,
                     *           "deny": null,
                     *           "conditions": null,
                     *           "reason": null,
                     *           "expiresAt": null,
                     *           "createdAt": "2025-03-14T09:26:53Z",
                     *           "createdBy": "usr_4Fq9"
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookRuleEvent"] & {
                        /** @enum {string} */
                        type?: "rule.created";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "rule.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * rule.deleted
         * @description A rule was removed from an app: the checks it covered answer as before it (cached answers
         *     of the app are purged).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "rule.deleted",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "app": "harbor-notes",
                     *         "rule": {
                     *           "id": "rul_3Wn7",
                     *           "kind": "pin",
                     *           "cohort": "acme-corp",
                     *           "range": "1.4.x",
                     *           "version": null,
                     *           "cohorts": null,
                     *           "devices": null,
                     *           "deny": null,
                     *           "conditions": null,
                     *           "reason": null,
                     *           "expiresAt": null,
                     *           "createdAt": "2025-03-14T09:26:53Z",
                     *           "createdBy": "usr_4Fq9"
                     *         },
                     *         "actor": {
                     *           "id": "usr_4Fq9",
                     *           "name": "Ada Admin"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookRuleEvent"] & {
                        /** @enum {string} */
                        type?: "rule.deleted";
                    };
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description Sent only by [testWebhook](/docs/api/webhooks/test-webhook), to that one subscription,
         *     whatever events it asks for: a way to check a receiver's URL and signature check.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
                     * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
                     */
                    "webhook-id": components["parameters"]["WebhookIdHeader"];
                    /**
                     * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
                     * @example 1741944413
                     */
                    "webhook-timestamp": components["parameters"]["WebhookTimestampHeader"];
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
                     * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                     */
                    "webhook-signature": components["parameters"]["WebhookSignatureHeader"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "type": "webhook.test",
                     *       "timestamp": "2025-03-14T09:26:53Z",
                     *       "data": {
                     *         "subscription": "whk_7Hc2Lq9P"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookTestEvent"];
                };
            };
            responses: {
                /**
                 * @description Any 2xx status within 10 seconds marks the delivery succeeded. Any other status, a
                 *     redirect, a refused connection or a timeout is a failed attempt, tried again after 5 s,
                 *     30 s, 2 min and so on: 15 attempts over about two days.
                 */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description An opaque id with a type prefix.
         * @example ver_2Qm8
         */
        Id: string;
        /**
         * @description Lower-case letters, digits and dashes; unique on the server.
         * @example harbor-notes
         */
        Slug: string;
        /**
         * @description A semantic version (semver.org 2.0), without a leading `v`.
         * @example 1.4.0
         * @example 2.0.0-beta.3
         */
        Semver: string;
        /**
         * @description Lower-case letters, digits, dots, dashes and underscores; unique within a team.
         * @example stable
         */
        CatalogName: string;
        /**
         * Format: date-time
         * @description An RFC 3339 date-time in UTC.
         * @example 2025-03-14T09:26:53Z
         */
        Timestamp: string;
        /**
         * @description Pass as `cursor` to get the next page; `null` on the last page.
         * @example eyJpZCI6InZlcl8yUW04In0
         */
        NextCursor: string | null;
        /** @description An RFC 9457 problem document. Servers may add extension members. */
        Problem: {
            /**
             * Format: uri-reference
             * @description A URI naming the kind of problem; it points at the section of the troubleshooting guide that explains it.
             * @default about:blank
             * @example https://ferry.example.org/docs/troubleshooting#not-found
             */
            type: string;
            /**
             * @description A short, human-readable summary of the kind of problem.
             * @example Not found
             */
            title: string;
            /**
             * @description The HTTP status code.
             * @example 404
             */
            status: number;
            /**
             * @description What went wrong this time.
             * @example No app with slug harbor-notes.
             */
            detail?: string;
            /**
             * Format: uri-reference
             * @description The request path the problem occurred on.
             * @example /v1/apps/harbor-notes
             */
            instance?: string;
            /** @description Validation errors, one per offending member or parameter (status 400 only). */
            errors?: components["schemas"]["FieldError"][];
        };
        /** @description One validation error. Names either a body member (`pointer`) or a parameter or form field (`field`). */
        FieldError: {
            /**
             * @description JSON Pointer (RFC 6901) to the offending member of the JSON request body.
             * @example /slug
             */
            pointer?: string;
            /**
             * @description Name of the offending query, path or header parameter, or multipart form field.
             * @example limit
             */
            field?: string;
            /**
             * @description What is wrong with it.
             * @example must match ^[a-z0-9][a-z0-9-]{1,62}$
             */
            message: string;
        };
        SignupRequest: {
            /**
             * @description The new team's name.
             * @example Acme Desktop
             */
            teamName: string;
            /**
             * @description The admin's display name.
             * @example Ada Lovelace
             */
            name: string;
            /**
             * Format: email
             * @description The admin's email address; unique on the server.
             * @example ada@acme.test
             */
            email: string;
            /**
             * Format: password
             * @description At least 12 characters.
             * @example correct-horse-battery-staple
             */
            password: string;
        };
        LoginRequest: {
            /**
             * Format: email
             * @example ada@acme.test
             */
            email: string;
            /**
             * Format: password
             * @example correct-horse-battery-staple
             */
            password: string;
        };
        /** @description A bearer token with the user and team it belongs to. */
        Session: {
            /** @description The JWT to send as `Authorization: Bearer <token>`. */
            token: string;
            /** @enum {string} */
            tokenType: "Bearer";
            expiresAt: components["schemas"]["Timestamp"];
            user: components["schemas"]["User"];
            team: components["schemas"]["Team"];
        };
        /**
         * @description `admin` owns the team and holds every permission; `user` holds the permissions granted to them.
         * @enum {string}
         */
        Role: "admin" | "user";
        User: {
            id: components["schemas"]["Id"];
            /**
             * Format: email
             * @example ada@acme.test
             */
            email: string;
            /** @example Ada Lovelace */
            name: string;
            role: components["schemas"]["Role"];
            createdAt: components["schemas"]["Timestamp"];
        };
        Team: {
            id: components["schemas"]["Id"];
            /** @example Acme Desktop */
            name: string;
            createdAt: components["schemas"]["Timestamp"];
        };
        /** @description One cell of the permission matrix. */
        PermissionGrant: {
            /** @description Whether the user holds this permission. */
            enabled: boolean;
            /**
             * @description Limits the permission to these app slugs (for apps) or catalog ids (for catalogs). Absent means all.
             * @example [
             *       "harbor-notes"
             *     ]
             */
            allowed?: string[];
        };
        /** @description What the user may do with apps and their versions. */
        AppPermissions: {
            create?: components["schemas"]["PermissionGrant"];
            edit?: components["schemas"]["PermissionGrant"];
            delete?: components["schemas"]["PermissionGrant"];
            upload?: components["schemas"]["PermissionGrant"];
            download?: components["schemas"]["PermissionGrant"];
        };
        /** @description What the user may do with one catalog (channels, platforms or archs). */
        CatalogPermissions: {
            create?: components["schemas"]["PermissionGrant"];
            edit?: components["schemas"]["PermissionGrant"];
            delete?: components["schemas"]["PermissionGrant"];
        };
        /** @description The permission matrix of a team user. Missing grants are not given. */
        Permissions: {
            apps?: components["schemas"]["AppPermissions"];
            channels?: components["schemas"]["CatalogPermissions"];
            platforms?: components["schemas"]["CatalogPermissions"];
            archs?: components["schemas"]["CatalogPermissions"];
        };
        /** @description A team user with their permission matrix. */
        TeamUser: components["schemas"]["User"] & {
            permissions: components["schemas"]["Permissions"];
        };
        TeamUserCreate: {
            /**
             * Format: email
             * @example grace@acme.test
             */
            email: string;
            /** @example Grace Hopper */
            name: string;
            /**
             * Format: password
             * @description The initial password; at least 12 characters.
             */
            password: string;
            permissions?: components["schemas"]["Permissions"];
        };
        TeamUserUpdate: {
            name?: string;
            /** Format: password */
            password?: string;
            permissions?: components["schemas"]["Permissions"];
        };
        TeamUserList: {
            items: components["schemas"]["TeamUser"][];
            nextCursor: components["schemas"]["NextCursor"];
        };
        ApiTokenCreate: {
            /**
             * @description What the token is for, shown in the token list.
             * @example github-actions-release
             */
            name: string;
            permissions?: components["schemas"]["Permissions"];
            /** @description When the token stops working; in the future, at most 10 years ahead. Leave out for a token that works until revoked. */
            expiresAt?: components["schemas"]["Timestamp"];
        };
        /** @description An API token, without its secret. */
        ApiToken: {
            id: components["schemas"]["Id"];
            /** @example github-actions-release */
            name: string;
            permissions: components["schemas"]["Permissions"];
            /** @description The id of the user who created the token; it never acts with more than they hold. */
            createdBy: components["schemas"]["Id"];
            createdAt: components["schemas"]["Timestamp"];
            /**
             * Format: date-time
             * @description When the token stops working; `null` when it works until revoked.
             */
            expiresAt: string | null;
            /**
             * Format: date-time
             * @description When the token last authenticated a request (to the minute); `null` if never.
             */
            lastUsedAt: string | null;
        };
        /** @description A new API token with its secret, which only this response shows. */
        ApiTokenCreated: components["schemas"]["ApiToken"] & {
            /** @description The secret; send it as `Authorization: Bearer <token>`. Store it now: it cannot be shown again. */
            token: string;
        };
        ApiTokenList: {
            items: components["schemas"]["ApiToken"][];
            nextCursor: components["schemas"]["NextCursor"];
        };
        AdminPasswordUpdate: {
            /** Format: password */
            currentPassword: string;
            /**
             * Format: password
             * @description At least 12 characters.
             */
            newPassword: string;
        };
        App: {
            slug: components["schemas"]["Slug"];
            /** @example Harbor Notes */
            name: string;
            /**
             * @description Shown in dashboards; may be empty.
             * @example A note-taking app that syncs over your own server.
             */
            description: string;
            /** @description Whether downloading its artifacts needs a token or a signed link. */
            private: boolean;
            tauriPublicKey?: components["schemas"]["TauriPublicKey"];
            sparklePublicKey?: components["schemas"]["SparklePublicKey"];
            /** @description Every Tauri key the app holds, with its role; present when it holds one. */
            tauriPublicKeys?: components["schemas"]["TauriKeyEntry"][];
            /** @description Every Sparkle key the app holds, with its role; present when it holds one. */
            sparklePublicKeys?: components["schemas"]["SparkleKeyEntry"][];
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        AppCreate: {
            slug: components["schemas"]["Slug"];
            /** @example Harbor Notes */
            name: string;
            /** @default  */
            description: string;
            /** @default false */
            private: boolean;
        };
        AppUpdate: {
            name?: string;
            description?: string;
            private?: boolean;
            tauriPublicKey?: components["schemas"]["TauriPublicKey"];
            sparklePublicKey?: components["schemas"]["SparklePublicKey"];
            /**
             * @description Replaces every Tauri key with this list (key rotation): one `current` key, at most one
             *     `next`, any `retired`. Uploads' `.sig` files may be signed by the current or the next
             *     key. Not together with `tauriPublicKey`; `[]` removes every key.
             */
            tauriPublicKeys?: components["schemas"]["TauriKeyEntry"][];
            /** @description As `tauriPublicKeys`, for Sparkle EdDSA keys. Not together with `sparklePublicKey`. */
            sparklePublicKeys?: components["schemas"]["SparkleKeyEntry"][];
        };
        /**
         * @description The app's Tauri updater public key, as in `plugins.updater.pubkey` (base64 of minisign's public
         *     key file). When set, every `<bundle>.sig` uploaded for the app must verify with it: an upload
         *     whose signature does not is refused (400 naming the file) and nothing of it is stored.
         *     `null` (the default) checks nothing; an app without a key has no `tauriPublicKey`.
         * @example dW50cnVzdGVkIGNvbW1lbnQ6IG1pbmlzaWduIHB1YmxpYyBrZXk6IDQ1M0E1QjY3OTUxMDlGQzcKUldUSG41R1ZaMXM2UmN3K2FRZkN6bVRsa1hWS3JmREJQcFZyZXJtdnkzR0t3ZkRkWDJRN0NqRncK
         */
        TauriPublicKey: string | null;
        /**
         * @description The app's Sparkle EdDSA public key, as in `SUPublicEDKey` (base64 of 32 bytes). When set, every
         *     `<archive>.edsig` uploaded for the app must verify with it over its archive, and so must each
         *     `.delta`'s signature; an upload that does not is refused (400 naming the file) and nothing of
         *     it is stored. `null` (the default) checks nothing; an app without a key has no `sparklePublicKey`.
         * @example pfIShU4dEXqPd5ObYNfDBiQWcXozk7estwzTnF9BamQ=
         */
        SparklePublicKey: string | null;
        AppList: {
            items: components["schemas"]["App"][];
            nextCursor: components["schemas"]["NextCursor"];
        };
        /**
         * @description Derived from the file extension at upload. `sig` is a Tauri signature (`<bundle>.sig`, uploaded with its bundle);
         *     `edsig` a Sparkle EdDSA signature (`<archive>.edsig`, the output of `sign_update`, uploaded with its archive);
         *     `delta` a Sparkle binary delta (`<App><version>-<from version>.delta`).
         * @enum {string}
         */
        PackageType: "exe" | "msi" | "nupkg" | "dmg" | "pkg" | "zip" | "tar.gz" | "appimage" | "deb" | "rpm" | "snap" | "blockmap" | "yml" | "sig" | "edsig" | "delta" | "msix" | "msixbundle";
        /** @description One file of a version. */
        Artifact: {
            id: components["schemas"]["Id"];
            /** @example HarborNotes-Setup-1.4.0.exe */
            fileName: string;
            packageType: components["schemas"]["PackageType"];
            /**
             * Format: int64
             * @description Size in bytes.
             * @example 85102930
             */
            size: number;
            /** @description Lower-case hex SHA-256 of the file. */
            sha256: string;
            /** @description Lower-case hex SHA-512 of the file. */
            sha512: string;
            /**
             * Format: uri
             * @description Absolute download URL; a signed link (with `expires` and `signature`) for private apps.
             */
            downloadUrl: string;
        };
        /** @description A release of an app for one channel, platform and architecture. */
        Version: {
            id: components["schemas"]["Id"];
            app: components["schemas"]["Slug"];
            version: components["schemas"]["Semver"];
            channel: components["schemas"]["CatalogName"];
            platform: components["schemas"]["CatalogName"];
            arch: components["schemas"]["CatalogName"];
            /** @description Markdown release notes; may be empty. */
            changelog: string;
            /** @description Drafts (`false`) are never offered to clients. */
            published: boolean;
            /** @description Clients should install it without asking. */
            critical: boolean;
            /** @description Every client below it must install it before any later version. */
            intermediate: boolean;
            /**
             * @description Share of devices offered this version now: the hand-set percentage, or the ramp's step
             *     in force; 0 while paused or pulled.
             */
            rolloutPercentage: number;
            rollout: components["schemas"]["Rollout"];
            createdAt: components["schemas"]["Timestamp"];
            /** @description When it was first published; `null` for drafts. */
            publishedAt: components["schemas"]["Timestamp"] | null;
            minimumSystemVersion?: components["schemas"]["MinimumSystemVersion"];
            /**
             * @description Who signed the version's Windows installers (`.exe`, `.msi`) or macOS app (`.zip`, `.dmg`);
             *     `null` when they are unsigned. Absent when the version has no file whose signer Ferry reads.
             */
            signer?: components["schemas"]["SignerIdentity"] | null;
            signerChange?: components["schemas"]["SignerChange"];
            artifacts: components["schemas"]["Artifact"][];
        };
        VersionUpload: {
            version: components["schemas"]["Semver"];
            channel: components["schemas"]["CatalogName"];
            platform: components["schemas"]["CatalogName"];
            arch: components["schemas"]["CatalogName"];
            /**
             * @description Markdown release notes.
             * @default
             */
            changelog: string;
            /** @default false */
            published: boolean;
            /** @default false */
            critical: boolean;
            /** @default false */
            intermediate: boolean;
            /** @default 100 */
            rolloutPercentage: number;
            minimumSystemVersion?: components["schemas"]["MinimumSystemVersion"];
            /**
             * @description Declares that this version is signed by another publisher than the newest published
             *     version (or unsigned after a signed one): a bridge release. Without it such an upload
             *     is refused with a `409`.
             * @default false
             */
            signerChange: boolean;
            /** @description Why the signer changed; shown with the version and in the explain endpoint. */
            signerChangeNote?: string;
            /**
             * @description Key rotation: the updater public keys (Tauri or Sparkle, as the app lists them) that the
             *     build in this upload trusts, separated by commas or whitespace. Each must be one of the
             *     app's keys. Left out or empty: the key its signature verifies with. An update check from a device
             *     on this version is offered only releases signed by one of these keys.
             * @example
             */
            trustsKeys?: string;
            /** @description The artifacts; repeat the form field once per file. */
            files: string[];
        };
        VersionUpdate: {
            changelog?: string;
            published?: boolean;
            critical?: boolean;
            intermediate?: boolean;
            /** @description A hand-set percentage; replaces a ramp. Not together with `ramp`. */
            rolloutPercentage?: number;
            /** @description A scheduled rollout, its clock starting now; `null` removes it (the last hand-set percentage applies again). */
            ramp?: components["schemas"]["RampRequest"] | null;
            /** @description When health reports pause this version; `null` uses the server's default. */
            healthPolicy?: components["schemas"]["HealthPolicy"] | null;
            /** @description The new minimum, or `null` to remove it. */
            minimumSystemVersion?: components["schemas"]["MinimumSystemVersion"] | null;
        };
        /**
         * @description The oldest OS version the build runs on, as `sparkle:minimumSystemVersion` in Sparkle
         *     appcasts (macOS `13.0`, Windows `10.0` for WinSparkle): Sparkle does not offer the update
         *     to a system below it. Present only when set.
         * @example 13.0
         */
        MinimumSystemVersion: string;
        VersionList: {
            items: components["schemas"]["Version"][];
            nextCursor: components["schemas"]["NextCursor"];
        };
        RolloutStep: {
            /** @description Share of devices offered the version from this step on. */
            percentage: number;
            /** @description Minutes after the previous step began (for the first step, after the ramp was set) that this step begins. Paused time does not count. */
            afterMinutes: number;
        };
        /**
         * @description A scheduled rollout. Its clock starts when it is set; percentages may not decrease.
         * @example {
         *       "steps": [
         *         {
         *           "percentage": 1,
         *           "afterMinutes": 0
         *         },
         *         {
         *           "percentage": 10,
         *           "afterMinutes": 1440
         *         },
         *         {
         *           "percentage": 50,
         *           "afterMinutes": 1440
         *         },
         *         {
         *           "percentage": 100,
         *           "afterMinutes": 1440
         *         }
         *       ]
         *     }
         */
        RampRequest: {
            steps: components["schemas"]["RolloutStep"][];
            gate?: components["schemas"]["RampGate"];
        };
        /**
         * @description When health reports pause the version's rollout. Only reports from devices Ferry offered
         *     the version count, and one client address (an IPv4 address, or an IPv6 /64) counts for at
         *     most `maxReportsPerAddress` installed and as many failed reports, so one machine cannot
         *     pose as a fleet. Answers always carry all four members; a request may leave out the last
         *     two to keep the server's defaults for them.
         */
        HealthPolicy: {
            /** @description The rollout pauses when the share of `failed` reports exceeds this. */
            maxFailureRatio: number;
            /** @description Counted reports needed before the share is judged. */
            minReports: number;
            /** @description Distinct client addresses whose devices reported `failed` before the version is paused (default 5). */
            minAddresses?: number;
            /** @description Reports of each outcome one client address counts for (default 5). */
            maxReportsPerAddress?: number;
        };
        VersionAdoption: {
            version: components["schemas"]["Semver"];
            /** Format: date */
            from: string;
            /** Format: date */
            to: string;
            /** @description One entry per day with any activity, oldest first. */
            days: components["schemas"]["AdoptionDay"][];
        };
        AdoptionDay: {
            /** Format: date */
            day: string;
            /** @description Devices first offered the version that day. */
            offered: number;
            /** @description Downloads of the version's artifacts (whole files, not ranges or `304`s). */
            downloads: number;
            /** @description Devices whose latest report, sent that day, is `installed`. */
            installed: number;
            /** @description Devices whose latest report, sent that day, is `failed`. */
            failed: number;
            /** @description Distinct devices whose update checks that day came from this version. */
            running: number;
        };
        /**
         * @description Evidence a ramp needs before each step after the first begins: at least `minInstalls`
         *     counted `installed` reports on the version during the step before it, and a failure share
         *     at or below `maxFailureRatio` (counted as `HealthPolicy` counts: only devices Ferry offered
         *     the version, each client address capped). Each step needs its own evidence: installs
         *     reported during step 1 do not open the way to step 3. Without it the ramp holds: its clock
         *     stops before the next step. A hold that lasts `deadlineMinutes` pauses the rollout. Members left out take
         *     the server's defaults (50 installs, 0.05, 10080 minutes).
         * @example {
         *       "minInstalls": 50,
         *       "maxFailureRatio": 0.05,
         *       "deadlineMinutes": 2880
         *     }
         */
        RampGate: {
            /** @description Counted `installed` reports needed since the step in force began (or since the version was last resumed, if later). */
            minInstalls?: number;
            /** @description The largest share of counted reports that may be `failed`. */
            maxFailureRatio?: number;
            /** @description Minutes a hold may last before the rollout pauses. */
            deadlineMinutes?: number;
        };
        RampGateState: {
            minInstalls: number;
            maxFailureRatio: number;
            deadlineMinutes: number;
            /** @description The step in force has its evidence (the next step begins on the clock). */
            met: boolean;
            /** @description Counted `installed` reports since the step in force began (or since the version was last resumed, if later). */
            installs: number;
            /** @description Set while the ramp holds before a step for want of evidence. */
            holding: {
                /** @description Index of the step that waits. */
                step: number;
                since: components["schemas"]["Timestamp"];
                deadline: components["schemas"]["Timestamp"];
                /** @description The deadline passed without evidence; the rollout is paused (see `paused`). */
                expired: boolean;
                /** @example 12 of 50 installs reported */
                reason: string;
            } | null;
        };
        RampState: {
            steps: components["schemas"]["RolloutStep"][];
            startedAt: components["schemas"]["Timestamp"];
            /** @description Index of the step in force (0 is the first); `null` before the first step begins. */
            currentStep: number | null;
            /** @description When the next step begins if the rollout is not paused; `null` at the last step while paused, or while a gated ramp holds. */
            nextStepAt: components["schemas"]["Timestamp"] | null;
            gate?: components["schemas"]["RampGateState"];
        };
        RolloutHold: {
            at: components["schemas"]["Timestamp"];
            reason: string;
            /** @description Set by Ferry from health reports rather than by a person. */
            automatic: boolean;
        };
        /** @description How the version reaches devices; `rolloutPercentage` is the share offered now. */
        Rollout: {
            /** @description The scheduled rollout; `null` when the percentage is set by hand. */
            ramp: components["schemas"]["RampState"] | null;
            /** @description Set while the rollout is paused (offered to no new device). */
            paused: components["schemas"]["RolloutHold"] | null;
            /** @description Set while the version is pulled (offered to nobody; devices on it are offered the previous good version). */
            pulled: components["schemas"]["RolloutHold"] | null;
            health: {
                /** @description Counted reports on this version since it was last resumed (see `HealthPolicy` for what counts). */
                reports: number;
                /** @description Of those, the devices whose latest report is `failed`. */
                failed: number;
                /** @description Distinct client addresses among the counted `failed` reports. */
                failedAddresses: number;
                policy: components["schemas"]["HealthPolicy"];
                /** @description The policy is the server's default (the version sets none). */
                defaultPolicy: boolean;
            };
        };
        RolloutAction: {
            /** @description Shown with the version; defaults to `Paused by <name>` or `Pulled by <name>`. */
            reason?: string;
        };
        HealthReport: {
            /** @description The device's `X-Ferry-Device-Id`. */
            deviceId: string;
            version: components["schemas"]["Semver"];
            channel: string;
            platform: string;
            arch: string;
            /** @enum {string} */
            outcome: "installed" | "failed";
            /** @description Why it failed; only with `failed`. */
            reason?: string;
            fromVersion?: components["schemas"]["Semver"];
        };
        HealthReportReceipt: {
            /**
             * @description `false` when nothing was stored: the version is a draft, pulled, or unknown for this
             *     channel, platform and arch, or Ferry never offered it to this device (no update check
             *     with this `X-Ferry-Device-Id` was answered with this version).
             */
            counted: boolean;
            /** @description This report made Ferry pause the version's rollout. */
            paused: boolean;
        };
        VersionExplanation: {
            id: components["schemas"]["Id"];
            version: string;
            /**
             * @description `excluded`: not a candidate for this check at all; `skipped`: a candidate a rule passed over.
             * @enum {string}
             */
            verdict: "offered" | "skipped" | "excluded";
            /** @enum {string} */
            rule: "offered" | "channel" | "platform" | "arch" | "draft" | "pulled" | "not-newer" | "gate" | "paused" | "bucket" | "zero-percent" | "unreadable" | "no-installable-file" | "lower-offer" | "rollback" | "hold" | "pin" | "targeting" | "manual";
            reason: string;
            /** @description The device's bucket (0-99) for this version, when a partial rollout made Ferry compute it. */
            bucket: number | null;
            rolloutPercentage: number;
        };
        UpdateExplanation: {
            app: components["schemas"]["Slug"];
            channel: string;
            platform: string;
            arch: string;
            currentVersion: components["schemas"]["Semver"];
            format: components["schemas"]["UpdaterFormat"];
            /**
             * @description `client`: the protocol carries the percentage and the updater stages itself (Squirrel.Windows, electron-updater).
             * @enum {string}
             */
            rolloutMode: "server" | "client";
            /** @description The team has this channel, platform and architecture. */
            inCatalog: boolean;
            /** @description The version the update check answers with; `null` when it answers "no update". */
            offered: string | null;
            critical: boolean;
            /** @description The offer is older than the device's version (the device runs a pulled version). */
            downgrade: boolean;
            /**
             * @description Present when the offered version declared a change of signer: who signs it now and who
             *     signed before ("signed by B, was A: a bridge release").
             */
            signerChange?: string;
            keyHold?: components["schemas"]["UpdateKeyHold"];
            /** @description Every version of the app, newest first, with the rule that decided it. */
            versions: components["schemas"]["VersionExplanation"][];
        };
        /**
         * @description The shape of update responses for this platform's clients.
         * @enum {string}
         */
        UpdaterFormat: "ferry" | "squirrel-windows" | "electron-builtin" | "electron-updater" | "tauri" | "velopack" | "sparkle" | "msix";
        Channel: {
            id: components["schemas"]["Id"];
            name: components["schemas"]["CatalogName"];
            /** @description May be empty. */
            description: string;
            createdAt: components["schemas"]["Timestamp"];
        };
        ChannelCreate: {
            name: components["schemas"]["CatalogName"];
            /** @default  */
            description: string;
        };
        ChannelUpdate: {
            name?: components["schemas"]["CatalogName"];
            description?: string;
        };
        ChannelList: {
            items: components["schemas"]["Channel"][];
            nextCursor: components["schemas"]["NextCursor"];
        };
        Platform: {
            id: components["schemas"]["Id"];
            name: components["schemas"]["CatalogName"];
            updater: components["schemas"]["UpdaterFormat"];
            createdAt: components["schemas"]["Timestamp"];
        };
        PlatformCreate: {
            name: components["schemas"]["CatalogName"];
            /** @default ferry */
            updater: components["schemas"]["UpdaterFormat"];
        };
        PlatformUpdate: {
            name?: components["schemas"]["CatalogName"];
            updater?: components["schemas"]["UpdaterFormat"];
        };
        PlatformList: {
            items: components["schemas"]["Platform"][];
            nextCursor: components["schemas"]["NextCursor"];
        };
        Arch: {
            id: components["schemas"]["Id"];
            name: components["schemas"]["CatalogName"];
            createdAt: components["schemas"]["Timestamp"];
        };
        ArchCreate: {
            name: components["schemas"]["CatalogName"];
        };
        ArchUpdate: {
            name: components["schemas"]["CatalogName"];
        };
        ArchList: {
            items: components["schemas"]["Arch"][];
            nextCursor: components["schemas"]["NextCursor"];
        };
        /**
         * @description What happened: a version was uploaded, published, unpublished, reached a ramp step, began
         *     holding before a ramp step for want of evidence (a gated ramp), was paused (by a person,
         *     by health reports, or by a gated ramp's deadline), resumed or pulled; an API token was
         *     created or revoked; a hold, pin or targeting rule was created or deleted.
         * @example version.paused
         * @enum {string}
         */
        WebhookEventType: "version.uploaded" | "version.published" | "version.unpublished" | "version.ramp_step" | "version.paused" | "version.resumed" | "version.pulled" | "token.created" | "token.revoked" | "version.ramp_holding" | "rule.created" | "rule.deleted";
        /**
         * @description An event type a subscription asks for, or `*` for every event type, including those later
         *     Ferry releases add. `*` stands alone in `events`.
         * @example *
         * @enum {string}
         */
        WebhookEventSelector: "*" | "version.uploaded" | "version.published" | "version.unpublished" | "version.ramp_step" | "version.paused" | "version.resumed" | "version.pulled" | "token.created" | "token.revoked" | "version.ramp_holding" | "rule.created" | "rule.deleted";
        /** @description A webhook subscription, without its secret. */
        Webhook: {
            id: components["schemas"]["Id"];
            /** @example https://hooks.example.org/ferry */
            url: string;
            description: string;
            /** @description The event types sent, or `["*"]` for every event type. */
            events: components["schemas"]["WebhookEventSelector"][];
            /** @description The apps whose events are sent; `null` for every app of the team. */
            apps: components["schemas"]["Slug"][] | null;
            enabled: boolean;
            /** @description Why Ferry disabled the subscription (its deliveries kept failing); `null` when enabled or disabled by a person. */
            disabledReason: string | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        /** @description A new subscription with its signing secret, shown only once. */
        WebhookCreated: components["schemas"]["Webhook"] & {
            /** @description The Standard Webhooks signing secret; give it to your receiver's verifying library as it is. */
            secret: string;
        };
        WebhookCreate: {
            /**
             * @description Where events are POSTed; `http` or `https`, public addresses only (see `FERRY_WEBHOOK_ALLOW_PRIVATE`).
             * @example https://hooks.example.org/ferry
             */
            url: string;
            description?: string;
            /** @description The event types to send (any of them, up to all twelve), or `["*"]` for every event type, including those later Ferry releases add. */
            events: components["schemas"]["WebhookEventSelector"][];
            /** @description Only events of these apps of the team; leave out (or `null`) for every app. */
            apps?: components["schemas"]["Slug"][] | null;
        };
        WebhookUpdate: {
            url?: string;
            description?: string;
            /** @description The event types to send (any of them, up to all twelve), or `["*"]` for every event type, including those later Ferry releases add. */
            events?: components["schemas"]["WebhookEventSelector"][];
            apps?: components["schemas"]["Slug"][] | null;
            /** @description `false` stops deliveries (they wait); `true` enables it again and clears `disabledReason`. */
            enabled?: boolean;
        };
        WebhookList: {
            items: components["schemas"]["Webhook"][];
        };
        /** @description One event sent (or to be sent) to one subscription. */
        WebhookDelivery: {
            id: components["schemas"]["Id"];
            /** @description The `webhook-id` header; the same for every delivery of one event (receivers use it to drop duplicates). */
            eventId: string;
            /**
             * @description A `WebhookEventType`, or `webhook.test`.
             * @example version.paused
             */
            event: string;
            /**
             * @description `failed`: every attempt failed; `pending`: an attempt is due at `nextAttemptAt`.
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            /** @description The HTTP status of the last attempt; `null` before one or when it got no response. */
            responseStatus: number | null;
            /** @description Why the last attempt failed (a status, a refused address, a timeout); `null` when it succeeded. */
            error: string | null;
            lastAttemptAt: components["schemas"]["Timestamp"] | null;
            nextAttemptAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
        };
        WebhookDeliveryList: {
            items: components["schemas"]["WebhookDelivery"][];
            nextCursor: components["schemas"]["NextCursor"];
        };
        /** @description The person who caused the event (through a login or one of their API tokens). */
        WebhookActor: {
            id: components["schemas"]["Id"];
            name: string;
            /** @description Present when the request came with an API token. */
            tokenId?: components["schemas"]["Id"];
        };
        /** @description A version as webhook events describe it. */
        WebhookVersion: {
            id: components["schemas"]["Id"];
            app: components["schemas"]["Slug"];
            /** @example 2.4.0 */
            version: string;
            channel: string;
            platform: string;
            arch: string;
            published: boolean;
            /** @description Set while the rollout is paused; `automatic` when health reports paused it. */
            paused: {
                at: components["schemas"]["Timestamp"];
                reason: string;
                automatic: boolean;
            } | null;
            pulled: {
                at: components["schemas"]["Timestamp"];
                reason: string;
            } | null;
        };
        /**
         * @description The body of `version.uploaded`, `version.published`, `version.unpublished`, `version.paused`,
         *     `version.resumed` and `version.pulled`. `actor` is `null` when Ferry acted by itself (a pause
         *     by health reports, or a gated ramp's hold reaching its deadline; `version.paused.automatic`
         *     is then `true`).
         */
        WebhookVersionEvent: {
            /** @enum {string} */
            type: "version.uploaded" | "version.published" | "version.unpublished" | "version.paused" | "version.resumed" | "version.pulled";
            timestamp: components["schemas"]["Timestamp"];
            data: {
                app: components["schemas"]["Slug"];
                version: components["schemas"]["WebhookVersion"];
                actor: components["schemas"]["WebhookActor"] | null;
            };
        };
        /**
         * @description The body of `version.ramp_step`, sent once for each step a running ramp reaches (`step`
         *     counts from 0). `actor` is `null`: the ramp's clock (or, on a gated ramp, the reports that
         *     brought its evidence) moved it, not a person.
         */
        WebhookRampStepEvent: {
            /** @enum {string} */
            type: "version.ramp_step";
            timestamp: components["schemas"]["Timestamp"];
            data: {
                app: components["schemas"]["Slug"];
                version: components["schemas"]["WebhookVersion"];
                step: number;
                percentage: number;
                actor?: null;
            };
        };
        /**
         * @description The body of `version.ramp_holding`, sent once for each hold of a gated ramp: its next step
         *     is due but the step in force lacks the evidence its gate asks for, so the ramp's clock
         *     stopped. `evidence` counts the reports of the step in force as the gate does. `actor` is
         *     always `null` (Ferry acted by itself). Should the hold reach its deadline, a
         *     `version.paused` event with `automatic: true` follows.
         */
        WebhookRampHoldingEvent: {
            /** @enum {string} */
            type: "version.ramp_holding";
            timestamp: components["schemas"]["Timestamp"];
            data: {
                app: components["schemas"]["Slug"];
                version: components["schemas"]["WebhookVersion"];
                /** @description The step in force (counted from 0). */
                step: number;
                /** @description The share of devices offered the version while it holds. */
                percentage: number;
                holding: {
                    /** @description The step that waits. */
                    step: number;
                    since: components["schemas"]["Timestamp"];
                    deadline: components["schemas"]["Timestamp"];
                };
                evidence: {
                    /** @description Counted `installed` reports of the step in force. */
                    installs: number;
                    minInstalls: number;
                    reports: number;
                    failed: number;
                    /** @description `failed` / `reports`, 0 without reports. */
                    failureRatio: number;
                    maxFailureRatio: number;
                    /** @example 12 of 50 installs reported */
                    progress: string;
                };
                actor: null;
            };
        };
        /**
         * @description An organisation, tenant or licence id the app chooses for the device; never a secret.
         * @example acme-corp
         */
        CohortKey: string;
        /** @description A condition on one attribute the device declares, with exactly one of `equals`, `oneOf` and `range`. A device that does not declare the attribute does not meet it. */
        RuleCondition: {
            /** @example os_version */
            attribute: string;
            equals?: string;
            oneOf?: string[];
            /** @description A semver range the attribute's value (a version) must satisfy. */
            range?: string;
        };
        /** @description A rule to add; which members apply depends on `kind` (see createRule). */
        RuleCreate: {
            /** @enum {string} */
            kind: "hold" | "pin" | "target";
            cohort?: components["schemas"]["CohortKey"];
            /**
             * @description A pin's semver range.
             * @example 1.4.x
             */
            range?: string;
            version?: components["schemas"]["Semver"];
            cohorts?: components["schemas"]["CohortKey"][];
            devices?: string[];
            deny?: string[];
            conditions?: components["schemas"]["RuleCondition"][];
            reason?: string;
            expiresAt?: components["schemas"]["Timestamp"];
        };
        /** @description A hold, pin or targeting rule of an app. */
        Rule: {
            id: components["schemas"]["Id"];
            /** @enum {string} */
            kind: "hold" | "pin" | "target";
            /** @description A hold's or pin's cohort; `null` on a hold of every device. */
            cohort: components["schemas"]["CohortKey"] | null;
            range: string | null;
            version: string | null;
            cohorts: components["schemas"]["CohortKey"][] | null;
            devices: string[] | null;
            deny: string[] | null;
            conditions: components["schemas"]["RuleCondition"][] | null;
            reason: string | null;
            expiresAt: components["schemas"]["Timestamp"] | null;
            createdAt: components["schemas"]["Timestamp"];
            createdBy: components["schemas"]["Id"];
        };
        RuleList: {
            items: components["schemas"]["Rule"][];
        };
        /** @description The body of `rule.created` and `rule.deleted`. */
        WebhookRuleEvent: {
            /** @enum {string} */
            type: "rule.created" | "rule.deleted";
            timestamp: components["schemas"]["Timestamp"];
            data: {
                app: components["schemas"]["Slug"];
                rule: components["schemas"]["Rule"];
                actor: components["schemas"]["WebhookActor"];
            };
        };
        /** @description The body of `token.created` and `token.revoked` (never the token's secret). */
        WebhookTokenEvent: {
            /** @enum {string} */
            type: "token.created" | "token.revoked";
            timestamp: components["schemas"]["Timestamp"];
            data: {
                token: {
                    id: components["schemas"]["Id"];
                    name: string;
                    createdBy: components["schemas"]["Id"];
                };
                actor: components["schemas"]["WebhookActor"];
            };
        };
        /** @description The body of `webhook.test`, sent by [testWebhook](/docs/api/webhooks/test-webhook). */
        WebhookTestEvent: {
            /** @enum {string} */
            type: "webhook.test";
            timestamp: components["schemas"]["Timestamp"];
            data: {
                subscription: components["schemas"]["Id"];
            };
        };
        HealthCheck: {
            /** @enum {string} */
            status: "ok" | "failing";
            /** @description Round-trip time of the probe in milliseconds. */
            latencyMs?: number;
        };
        /**
         * @description One JSON-RPC 2.0 message of the Model Context Protocol: a request (`method`, `id`), a
         *     notification (`method`, no `id`) or, from the server, a response (`result` or `error`).
         */
        JsonRpcMessage: {
            /** @enum {string} */
            jsonrpc: "2.0";
            /** @description The request's id, echoed by its response; absent on a notification. */
            id?: string | number | null;
            method?: string;
            params?: Record<string, never>;
            result?: Record<string, never>;
            error?: Record<string, never>;
        };
        Health: {
            /**
             * @description `degraded` when a dependency is failing but requests can still be served.
             * @enum {string}
             */
            status: "ok" | "degraded";
            /**
             * @description The server's version.
             * @example 1.0.0
             */
            version: string;
            uptimeSeconds: number;
            checks: {
                database: components["schemas"]["HealthCheck"];
                storage: components["schemas"]["HealthCheck"];
            };
        };
        /** @description Who made a change. For `token`, `id` and `name` are the API token's and `createdBy` its creator; for `system`, `id` is `system`. */
        AuditActor: {
            /** @enum {string} */
            type: "user" | "token" | "system";
            id: string;
            name: string;
            email: string | null;
            createdBy: {
                id: string;
                email: string;
            } | null;
        };
        /** @description One changed field; `from` is left out where the previous value is not known or not meaningful (a new object). */
        AuditChange: {
            from?: unknown;
            to?: unknown;
        };
        AuditEntry: {
            id: components["schemas"]["Id"];
            at: components["schemas"]["Timestamp"];
            actor: components["schemas"]["AuditActor"];
            /** @description The API operation, or `null` for what Ferry did on its own. */
            operationId: string | null;
            /** @description What happened, as `<object>.<verb>`, for example `version.publish` or `token.create`. */
            action: string;
            target: {
                type: string;
                id: string | null;
                /** @description The app slug, when the target belongs to an app. */
                app: string | null;
            };
            changes: {
                [key: string]: components["schemas"]["AuditChange"];
            };
            /** @description The client address, or `null` when there was no request. */
            address: string | null;
        };
        AuditEntryList: {
            items: components["schemas"]["AuditEntry"][];
            nextCursor: components["schemas"]["NextCursor"];
        };
        WhoAmI: {
            user: components["schemas"]["User"];
            team: components["schemas"]["Team"];
            permissions: components["schemas"]["Permissions"];
        };
        /** @description The version the client should install next. */
        UpdateInfo: {
            version: components["schemas"]["Semver"];
            currentVersion: components["schemas"]["Semver"];
            channel: components["schemas"]["CatalogName"];
            /** @description Install without asking; true if this or any skipped version is critical. */
            critical: boolean;
            /** @description This is an intermediate version; the client will be offered later versions after installing it. */
            intermediate: boolean;
            /** @description Present and `true` when the version is older than the client's, because the client runs a pulled version. */
            downgrade?: boolean;
            changelog: string;
            publishedAt: components["schemas"]["Timestamp"];
            artifacts: components["schemas"]["Artifact"][];
        };
        /**
         * @description Who signed a version: the Authenticode publisher of a Windows installer (`.exe`, `.msi`), or
         *     (`kind: apple`) the code signature of the main executable of the macOS app in a `.zip`, or of
         *     a `.dmg` disk image. The
         *     signer certificate's subject common name and organization, and the SHA-256 of the
         *     certificate. Two Authenticode identities are the same publisher when both names match (a
         *     renewed certificate keeps its publisher); two Apple identities when their Team IDs match.
         * @example {
         *       "kind": "authenticode",
         *       "commonName": "Harbor Notes Ltd",
         *       "organization": "Harbor Notes",
         *       "fingerprint": "ac04858551ea730a8c07f027c978055a03e85f403c73b2bf53a742874cd4c200"
         *     }
         * @example {
         *       "kind": "apple",
         *       "commonName": "Developer ID Application: GetSentry LLC (97JCY7859U)",
         *       "organization": "GetSentry LLC",
         *       "fingerprint": "dc4f1d4c1136a21483c9cbd65c2201e593d3c57707877318c36a878d867cf705",
         *       "teamId": "97JCY7859U"
         *     }
         */
        SignerIdentity: {
            /** @enum {string} */
            kind: "authenticode" | "apple";
            /** @description The Apple Developer Team ID (`kind: apple`), the signer certificate's subject OU. */
            teamId?: string;
            /** @description The subject's CN (what electron-updater's `publisherName` compares). */
            commonName: string | null;
            /** @description The subject's O. */
            organization: string | null;
            /** @description SHA-256 of the signer certificate (DER), lowercase hex. */
            fingerprint: string;
        };
        /**
         * @description Present when the upload declared a change of signer (`signerChange=true`): a bridge
         *     release. `previous` is the publisher of the newest published version it replaced when it
         *     was published; `null` while it is a draft or when nothing signed came before.
         */
        SignerChange: {
            note: string;
            previous: components["schemas"]["SignerIdentity"] | null;
        };
        /**
         * @description `current`: the key the installed base trusts; `next`: the key a bridge release taught
         *     installs to trust, accepted for uploads alongside the current one; `retired`: kept on
         *     record, no longer accepted.
         * @enum {string}
         */
        UpdaterKeyRole: "current" | "next" | "retired";
        TauriKeyEntry: {
            /** @description A Tauri updater public key, as in `plugins.updater.pubkey`. */
            key: string;
            role: components["schemas"]["UpdaterKeyRole"];
        };
        SparkleKeyEntry: {
            /** @description A Sparkle `SUPublicEDKey`. */
            key: string;
            role: components["schemas"]["UpdaterKeyRole"];
        };
        UpdateKeyDevices: {
            /** @description The latest UTC day with telemetry for the app; `null` when there is none. */
            day: string | null;
            /** @description Devices seen that day, on any version. */
            devices: number;
            keys: {
                /** @enum {string} */
                updater: "tauri" | "sparkle";
                key: string;
                role: components["schemas"]["UpdaterKeyRole"];
                /** @description Devices that day on a version whose signature this key verified. */
                devices: number;
            }[];
        };
        /** @description The JSON Squirrel.Mac (Electron's built-in `autoUpdater` on macOS) reads. */
        SquirrelMacUpdate: {
            /**
             * Format: uri
             * @description Download URL of the `.zip`; a signed link for private apps.
             */
            url: string;
            /** @description The offered version. */
            name: string;
            /** @description The version's changelog. */
            notes: string;
            pub_date: components["schemas"]["Timestamp"];
        };
        /** @description Velopack's `VelopackAssetFeed`, as its `UpdateManager` reads it. */
        VelopackFeed: {
            Assets: {
                /** @description The package id, from the package file name before its version. */
                PackageId: string;
                Version: string;
                /** @enum {string} */
                Type: "Full" | "Delta";
                /** @description Resolved relative to the feed's folder. */
                FileName: string;
                SHA1: string;
                SHA256: string;
                /** Format: int64 */
                Size: number;
                NotesMarkdown: string;
                /** @description Always empty; Velopack shows `NotesMarkdown`. */
                NotesHtml: string;
            }[];
        };
        /** @description The JSON Tauri v2's updater reads from a dynamic server. */
        TauriUpdate: {
            version: components["schemas"]["Semver"];
            notes: string;
            pub_date: components["schemas"]["Timestamp"];
            /**
             * Format: uri
             * @description Download URL of the signed bundle; a signed link for private apps.
             */
            url: string;
            /** @description Content of the `<bundle>.sig` uploaded with the bundle. */
            signature: string;
            /** @description Ferry's critical flag (not read by Tauri; available as `update.rawJson.critical`). */
            critical: boolean;
        };
        TelemetryRow: {
            /** Format: date */
            day: string;
            app: components["schemas"]["Slug"];
            /** @description The version the clients ran. */
            version: string;
            channel: string;
            platform: string;
            arch: string;
            /** @description Update checks with a device id. */
            checks: number;
            /** @description Distinct device ids among them that day. */
            devices: number;
        };
        TelemetryReport: {
            /** Format: date */
            from: string;
            /** Format: date */
            to: string;
            items: components["schemas"]["TelemetryRow"][];
        };
        /** @description A TUF metadata file as signed (TUF specification 1.0, JSON). */
        TufMetadataFile: {
            /** @description The signed part; `_type` names the role (`root` or `targets`), the rest follows the TUF specification. */
            signed: {
                /** @enum {string} */
                _type: "root" | "targets";
            } & {
                [key: string]: unknown;
            };
            signatures: {
                keyid: string;
                sig: string;
            }[];
        };
        /** @description What the server stored. */
        TufStored: {
            /** @enum {string} */
            role: "root" | "targets";
            version: number;
            /** @description How many targets a targets file lists. */
            targets?: number;
        };
        /**
         * @description Present when key rotation held releases back: the newest release above the device's version
         *     is signed by an updater key that version does not trust, so the device is offered the
         *     newest release it can verify (the bridge), or nothing. Those releases are listed in
         *     `versions` as skipped by the rule `gate`.
         */
        UpdateKeyHold: {
            /** @description The newest release held back. */
            version: string;
            /** @description The updater public key it is signed with. */
            signedBy: string;
            /** @description The release offered instead; `null` when none of those the device may install can be verified. */
            bridge: string | null;
            /** @description "1.5.0 is signed by key …, which 1.3.0 does not trust; offering the bridge 1.4.0." */
            reason: string;
        };
    };
    responses: {
        /** @description A cacheable answer whose `ETag` the request named in `If-None-Match`; no body. */
        UpdateNotModified: {
            headers: {
                "Cache-Control": components["headers"]["UpdateCacheControl"];
                ETag: components["headers"]["UpdateETag"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The request is invalid; `errors` lists each problem. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#validation",
                 *       "title": "Request validation failed",
                 *       "status": 400,
                 *       "detail": "1 field is invalid.",
                 *       "instance": "/v1/apps",
                 *       "errors": [
                 *         {
                 *           "pointer": "/slug",
                 *           "message": "must match ^[a-z0-9][a-z0-9-]{1,62}$"
                 *         }
                 *       ]
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The bearer token is missing, expired or invalid. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#unauthorized",
                 *       "title": "Authentication required",
                 *       "status": 401,
                 *       "detail": "The bearer token has expired.",
                 *       "instance": "/v1/apps"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The email or password is wrong. */
        InvalidCredentials: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#invalid-credentials",
                 *       "title": "Invalid credentials",
                 *       "status": 401,
                 *       "detail": "The email or password is wrong.",
                 *       "instance": "/v1/auth/login"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The signup key is missing or wrong. */
        InvalidSignupKey: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#invalid-signup-key",
                 *       "title": "Invalid signup key",
                 *       "status": 401,
                 *       "detail": "X-Ferry-Signup-Key does not match the server's signup key.",
                 *       "instance": "/v1/auth/signup"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The caller lacks the permission this operation needs (or it is limited to other apps or catalog entries). */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#forbidden",
                 *       "title": "Permission denied",
                 *       "status": 403,
                 *       "detail": "This operation needs apps.upload for harbor-notes.",
                 *       "instance": "/v1/apps/harbor-notes/versions"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The resource does not exist, or the caller may not see it. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#not-found",
                 *       "title": "Not found",
                 *       "status": 404,
                 *       "detail": "No app with slug harbor-notes.",
                 *       "instance": "/v1/apps/harbor-notes"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description This device sent more than 10 reports in the last minute; retry after `Retry-After` seconds. */
        TooManyHealthReports: {
            headers: {
                /**
                 * @description Seconds until the device may report again.
                 * @example 42
                 */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#too-many-requests",
                 *       "title": "Too many requests",
                 *       "status": 429,
                 *       "detail": "This device sent too many health reports; try again in 42 seconds.",
                 *       "instance": "/v1/apps/harbor-notes/health-reports"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description Too many failed password checks for this email (logins and password changes count
         *     together), or too many login attempts from this address, in the current window. The
         *     password was not checked; retry after `Retry-After` seconds.
         */
        TooManyLoginAttempts: {
            headers: {
                /**
                 * @description Seconds until the window ends and attempts are checked again.
                 * @example 840
                 */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#too-many-requests",
                 *       "title": "Too many requests",
                 *       "status": 429,
                 *       "detail": "Too many failed logins for this email; try again in 840 seconds.",
                 *       "instance": "/v1/auth/login"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request conflicts with existing data (a duplicate name, slug or version, or a resource still in use). */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#conflict",
                 *       "title": "Conflict",
                 *       "status": 409,
                 *       "detail": "The slug harbor-notes is already taken on this server; choose another.",
                 *       "instance": "/v1/apps"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The upload exceeds the server's size limit (`FERRY_MAX_UPLOAD_BYTES`), has more than 1000
         *     parts, or a text field over 1 MiB. The server stops reading at the limit and keeps nothing.
         */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#payload-too-large",
                 *       "title": "Request body too large",
                 *       "status": 413,
                 *       "detail": "Uploads are limited to 2 GiB per request.",
                 *       "instance": "/v1/apps/harbor-notes/versions"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The JSON body is larger than 1 MiB (1048576 bytes); the server stops reading at the limit. */
        JsonBodyTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#payload-too-large",
                 *       "title": "Request body too large",
                 *       "status": 413,
                 *       "detail": "JSON bodies are limited to 1048576 bytes.",
                 *       "instance": "/v1/apps"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Telemetry is switched off on this server. */
        TelemetryDisabled: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#telemetry-disabled",
                 *       "title": "Telemetry is switched off",
                 *       "status": 404,
                 *       "detail": "Telemetry is switched off on this server (FERRY_TELEMETRY=off).",
                 *       "instance": "/v1/telemetry"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description An unexpected server error. The `instance` helps find it in the server logs. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#internal",
                 *       "title": "Internal Server Error",
                 *       "status": 500,
                 *       "detail": "An unexpected error occurred; it has been logged.",
                 *       "instance": "/v1/apps"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The database or artifact storage cannot be reached right now. Nothing was half-recorded; retry after the number of seconds in `Retry-After`. */
        Unavailable: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://ferry.example.org/docs/troubleshooting#unavailable",
                 *       "title": "Service unavailable",
                 *       "status": 503,
                 *       "detail": "The database does not answer.",
                 *       "instance": "/v1/health"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /**
         * @description The event's id (Standard Webhooks), the same on every attempt and redelivery of one event; drop an event whose id you already handled.
         * @example msg_8hT3kQ1mZx7Rc2VbN9LpY4
         */
        WebhookIdHeader: string;
        /**
         * @description When this attempt was signed, in Unix seconds; refuse one more than five minutes away from your clock (Standard Webhooks libraries do).
         * @example 1741944413
         */
        WebhookTimestampHeader: string;
        /**
         * @description `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the subscription's secret (the bytes after `whsec_`, base64-decoded).
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        WebhookSignatureHeader: string;
        /**
         * @description The app's slug.
         * @example harbor-notes
         */
        AppSlug: components["schemas"]["Slug"];
        /**
         * @description The version's id (`id` of a Version, not its semver number).
         * @example ver_2Qm8
         */
        VersionId: components["schemas"]["Id"];
        /**
         * @description The artifact's id.
         * @example art_7h3j
         */
        ArtifactId: components["schemas"]["Id"];
        /**
         * @description The channel's id.
         * @example ch_5t1b
         */
        ChannelId: components["schemas"]["Id"];
        /**
         * @description The platform's id.
         * @example pl_3w8d
         */
        PlatformId: components["schemas"]["Id"];
        /**
         * @description The architecture's id.
         * @example ar_2c7v
         */
        ArchId: components["schemas"]["Id"];
        /**
         * @description The team user's id.
         * @example usr_3h8c
         */
        UserId: components["schemas"]["Id"];
        /**
         * @description The API token's id.
         * @example tok_4Rk9Wq2n
         */
        ApiTokenId: components["schemas"]["Id"];
        /**
         * @description Channel name.
         * @example stable
         */
        ChannelName: string;
        /**
         * @description Architecture name.
         * @example x64
         */
        ArchName: string;
        /**
         * @description Page size.
         * @example 20
         */
        Limit: number;
        /**
         * @description The `nextCursor` of the previous page; leave out for the first page.
         * @example eyJpZCI6InZlcl8yUW04In0
         */
        Cursor: string;
        /**
         * @description Only versions on this channel (name).
         * @example stable
         */
        ChannelFilter: string;
        /**
         * @description Only versions for this platform (name).
         * @example windows
         */
        PlatformFilter: string;
        /**
         * @description Only versions for this architecture (name).
         * @example x64
         */
        ArchFilter: string;
        /**
         * @description Only published (`true`) or only draft (`false`) versions.
         * @example true
         */
        PublishedFilter: boolean;
        /**
         * @description The device's cohort (an organisation, tenant or licence id the app chooses), which pins, holds and targeting rules name. Never a secret.
         * @example acme-corp
         */
        Cohort: components["schemas"]["CohortKey"];
        /**
         * @description Up to 8 attributes the device declares for targeting conditions, as `key=value` pairs separated by commas; keys are lower-case letters, digits and `_` (at most 32 characters), values at most 64 characters without `,` or `=`. Never secrets.
         * @example os_version=14.2.1,edition=pro
         */
        Attributes: string;
        /**
         * @description `true` when a person asked for this check ("Check for updates"): a ramp's percentage is skipped, never a pull, a pause, a hold, a pin or a targeting rule.
         * @example true
         */
        Manual: boolean;
        /**
         * @description The `X-Ferry-Cohort` header as a query parameter, for clients that only fetch a URL (the header wins when both are sent).
         * @example acme-corp
         */
        CohortQuery: components["schemas"]["CohortKey"];
        /**
         * @description The `X-Ferry-Attributes` header as a query parameter (the header wins when both are sent).
         * @example os_version=14.2.1,edition=pro
         */
        AttributesQuery: string;
        /**
         * @description The `X-Ferry-Manual` header as a query parameter (the header wins when both are sent).
         * @example true
         */
        ManualQuery: boolean;
        /**
         * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
         *     Used to bucket the device for staged rollouts; never stored with personal data.
         * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
         */
        DeviceId: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description `no-store` unless `FERRY_UPDATE_CACHE_SECONDS` is set. With it, an answer every device gets
         *     alike (no partial rollout above the client that Ferry decides per device, a public app) is
         *     `public, max-age=<seconds>`, with `stale-while-revalidate=<seconds>` when
         *     `FERRY_UPDATE_STALE_SECONDS` is set; during a ramp both end at its next step.
         * @example public, max-age=300, stale-while-revalidate=30
         */
        UpdateCacheControl: string;
        /**
         * @description A strong validator of a cacheable answer (status, type and body), quoted. Absent on `no-store` answers.
         * @example "5d41402abc4b2a76b9719d911017c592"
         */
        UpdateETag: string;
        /**
         * @description The keys a purge names, space-separated: `ferry-app-<app>` and
         *     `ferry-target-<app>.<channel>.<platform>.<arch>`. Only on cacheable answers.
         * @example ferry-app-harbor-notes ferry-target-harbor-notes.stable.windows.x64
         */
        SurrogateKey: string;
        /**
         * @description The same keys, comma-separated. Only on cacheable answers.
         * @example ferry-app-harbor-notes,ferry-target-harbor-notes.stable.windows.x64
         */
        CacheTag: string;
        /**
         * @description `public, max-age=31536000, immutable` for published artifacts of public apps (the bytes
         *     under this URL never change); `private, no-store` for drafts and private apps.
         * @example public, max-age=31536000, immutable
         */
        ArtifactCacheControl: string;
        /**
         * @description The artifact's SHA-256 in hex, quoted.
         * @example "ca9781128b1a6dbafac231b39a3df71a6b1ae6e05fe44fcc6ca3b9e8edac4b20"
         */
        ArtifactETag: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    signup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "teamName": "Acme Desktop",
                 *       "name": "Ada Lovelace",
                 *       "email": "ada@acme.test",
                 *       "password": "correct-horse-battery-staple"
                 *     }
                 */
                "application/json": components["schemas"]["SignupRequest"];
            };
        };
        responses: {
            /** @description The team and its admin were created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c3JfN2s0bTJwIiwidGVhbSI6InRtXzl4MnEiLCJleHAiOjE3NDIwMzI4MDB9.Xs6n0Rr7Yd2wUu5m8W7bQ0w2tq1i3bYj9F4kq1mJc0E",
                     *       "tokenType": "Bearer",
                     *       "expiresAt": "2025-03-15T09:26:53Z",
                     *       "user": {
                     *         "id": "usr_7k4m2p",
                     *         "email": "ada@acme.test",
                     *         "name": "Ada Lovelace",
                     *         "role": "admin",
                     *         "createdAt": "2025-03-14T09:26:53Z"
                     *       },
                     *       "team": {
                     *         "id": "tm_9x2q",
                     *         "name": "Acme Desktop",
                     *         "createdAt": "2025-03-14T09:26:53Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Session"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["InvalidSignupKey"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@acme.test",
                 *       "password": "correct-horse-battery-staple"
                 *     }
                 */
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description The credentials are valid. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c3JfN2s0bTJwIiwidGVhbSI6InRtXzl4MnEiLCJleHAiOjE3NDIwMzI4MDB9.Xs6n0Rr7Yd2wUu5m8W7bQ0w2tq1i3bYj9F4kq1mJc0E",
                     *       "tokenType": "Bearer",
                     *       "expiresAt": "2025-03-15T09:26:53Z",
                     *       "user": {
                     *         "id": "usr_7k4m2p",
                     *         "email": "ada@acme.test",
                     *         "name": "Ada Lovelace",
                     *         "role": "admin",
                     *         "createdAt": "2025-03-14T09:26:53Z"
                     *       },
                     *       "team": {
                     *         "id": "tm_9x2q",
                     *         "name": "Acme Desktop",
                     *         "createdAt": "2025-03-14T09:26:53Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Session"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["InvalidCredentials"];
            413: components["responses"]["JsonBodyTooLarge"];
            429: components["responses"]["TooManyLoginAttempts"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listApps: {
        parameters: {
            query?: {
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of apps. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "slug": "harbor-notes",
                     *           "name": "Harbor Notes",
                     *           "description": "A note-taking app that syncs over your own server.",
                     *           "private": false,
                     *           "createdAt": "2025-03-14T09:30:00Z",
                     *           "updatedAt": "2025-03-14T09:30:00Z"
                     *         },
                     *         {
                     *           "slug": "lighthouse-admin",
                     *           "name": "Lighthouse Admin",
                     *           "description": "Internal fleet console.",
                     *           "private": true,
                     *           "createdAt": "2025-03-10T16:02:11Z",
                     *           "updatedAt": "2025-03-12T08:45:00Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["AppList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "slug": "saltmarsh",
                 *       "name": "Saltmarsh",
                 *       "description": "A field journal for coastal surveys.",
                 *       "private": false
                 *     }
                 */
                "application/json": components["schemas"]["AppCreate"];
            };
        };
        responses: {
            /** @description The app was created. */
            201: {
                headers: {
                    /**
                     * @description URL of the new app.
                     * @example /v1/apps/saltmarsh
                     */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "slug": "saltmarsh",
                     *       "name": "Saltmarsh",
                     *       "description": "A field journal for coastal surveys.",
                     *       "private": false,
                     *       "createdAt": "2025-03-14T09:30:00Z",
                     *       "updatedAt": "2025-03-14T09:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listVersions: {
        parameters: {
            query?: {
                /**
                 * @description Only versions of this app (slug).
                 * @example harbor-notes
                 */
                app?: components["schemas"]["Slug"];
                /**
                 * @description Only versions on this channel (name).
                 * @example stable
                 */
                channel?: components["parameters"]["ChannelFilter"];
                /**
                 * @description Only versions for this platform (name).
                 * @example windows
                 */
                platform?: components["parameters"]["PlatformFilter"];
                /**
                 * @description Only versions for this architecture (name).
                 * @example x64
                 */
                arch?: components["parameters"]["ArchFilter"];
                /**
                 * @description Only published (`true`) or only draft (`false`) versions.
                 * @example true
                 */
                published?: components["parameters"]["PublishedFilter"];
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of versions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "1.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "changelog": "- Tags for notes\n- Faster sync on slow networks\n",
                     *           "published": true,
                     *           "critical": false,
                     *           "intermediate": false,
                     *           "rolloutPercentage": 100,
                     *           "rollout": {
                     *             "ramp": null,
                     *             "paused": null,
                     *             "pulled": null,
                     *             "health": {
                     *               "reports": 0,
                     *               "failed": 0,
                     *               "failedAddresses": 0,
                     *               "policy": {
                     *                 "maxFailureRatio": 0.2,
                     *                 "minReports": 20,
                     *                 "minAddresses": 5,
                     *                 "maxReportsPerAddress": 5
                     *               },
                     *               "defaultPolicy": true
                     *             }
                     *           },
                     *           "createdAt": "2025-03-14T10:15:00Z",
                     *           "publishedAt": "2025-03-14T10:15:00Z",
                     *           "artifacts": [
                     *             {
                     *               "id": "art_7h3j",
                     *               "fileName": "HarborNotes-Setup-1.4.0.exe",
                     *               "packageType": "exe",
                     *               "size": 85102930,
                     *               "sha256": "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb",
                     *               "sha512": "1f40fc92da241694750979ee6cf582f2d5d7d28e18335de05abc54d0560e0f5302860c652bf08d560252aa5e74210546f369fbbbce8c12cfc7957b2652fe9a75",
                     *               "downloadUrl": "https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3j/download"
                     *             },
                     *             {
                     *               "id": "art_7h3k",
                     *               "fileName": "harbor-notes-1.4.0-full.nupkg",
                     *               "packageType": "nupkg",
                     *               "size": 85102930,
                     *               "sha256": "2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6",
                     *               "sha512": "acc28db2beb7b42baa1cb0243d401ccb4e3fce44d7b02879a52799aadff541522d8822598b2fa664f9d5156c00c924805d75c3868bd56c2acb81d37e98e35adc",
                     *               "downloadUrl": "https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3k/download"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "nextCursor": "eyJpZCI6InZlcl8yUW04In0"
                     *     }
                     */
                    "application/json": components["schemas"]["VersionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app and everything it held were deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Notes that sync over your own server, now with tags.",
                 *       "private": true
                 *     }
                 */
                "application/json": components["schemas"]["AppUpdate"];
            };
        };
        responses: {
            /** @description The updated app. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "slug": "harbor-notes",
                     *       "name": "Harbor Notes",
                     *       "description": "Notes that sync over your own server, now with tags.",
                     *       "private": true,
                     *       "createdAt": "2025-03-14T09:30:00Z",
                     *       "updatedAt": "2025-03-20T11:04:37Z"
                     *     }
                     */
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    searchAppVersions: {
        parameters: {
            query?: {
                /**
                 * @description Only versions on this channel (name).
                 * @example stable
                 */
                channel?: components["parameters"]["ChannelFilter"];
                /**
                 * @description Only versions for this platform (name).
                 * @example windows
                 */
                platform?: components["parameters"]["PlatformFilter"];
                /**
                 * @description Only versions for this architecture (name).
                 * @example x64
                 */
                arch?: components["parameters"]["ArchFilter"];
                /**
                 * @description Only published (`true`) or only draft (`false`) versions.
                 * @example true
                 */
                published?: components["parameters"]["PublishedFilter"];
                /**
                 * @description Only critical (`true`) or only non-critical (`false`) versions.
                 * @example true
                 */
                critical?: boolean;
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the app's versions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "ver_2Qm8",
                     *           "app": "harbor-notes",
                     *           "version": "1.4.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "changelog": "- Tags for notes\n- Faster sync on slow networks\n",
                     *           "published": true,
                     *           "critical": false,
                     *           "intermediate": false,
                     *           "rolloutPercentage": 100,
                     *           "rollout": {
                     *             "ramp": null,
                     *             "paused": null,
                     *             "pulled": null,
                     *             "health": {
                     *               "reports": 0,
                     *               "failed": 0,
                     *               "failedAddresses": 0,
                     *               "policy": {
                     *                 "maxFailureRatio": 0.2,
                     *                 "minReports": 20,
                     *                 "minAddresses": 5,
                     *                 "maxReportsPerAddress": 5
                     *               },
                     *               "defaultPolicy": true
                     *             }
                     *           },
                     *           "createdAt": "2025-03-14T10:15:00Z",
                     *           "publishedAt": "2025-03-14T10:15:00Z",
                     *           "artifacts": [
                     *             {
                     *               "id": "art_7h3j",
                     *               "fileName": "HarborNotes-Setup-1.4.0.exe",
                     *               "packageType": "exe",
                     *               "size": 85102930,
                     *               "sha256": "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb",
                     *               "sha512": "1f40fc92da241694750979ee6cf582f2d5d7d28e18335de05abc54d0560e0f5302860c652bf08d560252aa5e74210546f369fbbbce8c12cfc7957b2652fe9a75",
                     *               "downloadUrl": "https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3j/download"
                     *             },
                     *             {
                     *               "id": "art_7h3k",
                     *               "fileName": "harbor-notes-1.4.0-full.nupkg",
                     *               "packageType": "nupkg",
                     *               "size": 85102930,
                     *               "sha256": "2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6",
                     *               "sha512": "acc28db2beb7b42baa1cb0243d401ccb4e3fce44d7b02879a52799aadff541522d8822598b2fa664f9d5156c00c924805d75c3868bd56c2acb81d37e98e35adc",
                     *               "downloadUrl": "https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3k/download"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["VersionList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    uploadVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "version": "1.4.0",
                 *       "channel": "stable",
                 *       "platform": "windows",
                 *       "arch": "x64",
                 *       "changelog": "- Tags for notes\n- Faster sync on slow networks\n",
                 *       "published": true,
                 *       "critical": false,
                 *       "intermediate": false,
                 *       "rolloutPercentage": 100,
                 *       "minimumSystemVersion": "10.0",
                 *       "files": [
                 *         "HarborNotes-Setup-1.4.0.exe",
                 *         "harbor-notes-1.4.0-full.nupkg"
                 *       ]
                 *     }
                 */
                "multipart/form-data": components["schemas"]["VersionUpload"];
            };
        };
        responses: {
            /** @description The version was created with its artifacts. */
            201: {
                headers: {
                    /**
                     * @description URL of the new version.
                     * @example /v1/apps/harbor-notes/versions/ver_2Qm8
                     */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Version"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version and its artifacts were deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "critical": true,
                 *       "rolloutPercentage": 25
                 *     }
                 */
                "application/json": components["schemas"]["VersionUpdate"];
            };
        };
        responses: {
            /** @description The updated version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Version"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    pauseVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "Crash on start reported by support"
                 *     }
                 */
                "application/json": components["schemas"]["RolloutAction"];
            };
        };
        responses: {
            /** @description The paused version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Version"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    resumeVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resumed version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Version"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    pullVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "Corrupts notes on upgrade from 1.3"
                 *     }
                 */
                "application/json": components["schemas"]["RolloutAction"];
            };
        };
        responses: {
            /** @description The pulled version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Version"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getVersionAdoption: {
        parameters: {
            query?: {
                /**
                 * @description First day (UTC), inclusive; default 29 days before `to`.
                 * @example 2026-03-01
                 */
                from?: string;
                /**
                 * @description Last day (UTC), inclusive; at most 91 days after `from`; default today.
                 * @example 2026-03-31
                 */
                to?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version's adoption, day by day. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "version": "1.3.0",
                     *       "from": "2026-03-01",
                     *       "to": "2026-03-31",
                     *       "days": [
                     *         {
                     *           "day": "2026-03-02",
                     *           "offered": 120,
                     *           "downloads": 96,
                     *           "installed": 90,
                     *           "failed": 2,
                     *           "running": 85
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["VersionAdoption"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The artifact was deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    downloadArtifact: {
        parameters: {
            query?: {
                /**
                 * @description Signed link expiry, Unix time in seconds. Required together with `signature`.
                 * @example 1742032800
                 */
                expires?: number;
                /**
                 * @description Hex HMAC-SHA256 over the request path and `expires`, made by the server.
                 * @example 9f2c4e1d7a3b5c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60
                 */
                signature?: string;
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description The file. With `FERRY_ACCEL_REDIRECT_PREFIX` set, Ferry's own answer has no body and an
             *     `X-Accel-Redirect` header; nginx in front sends the file (ranges included).
             */
            200: {
                headers: {
                    /**
                     * @description Only with `FERRY_ACCEL_REDIRECT_PREFIX`: the file's path under nginx's internal
                     *     location. nginx consumes it; clients never see it.
                     * @example /_ferry_blobs/art_8q1w3k9d
                     */
                    "X-Accel-Redirect"?: string;
                    /**
                     * @description Suggests the artifact's file name.
                     * @example attachment; filename="HarborNotes-Setup-1.4.0.exe"
                     */
                    "Content-Disposition"?: string;
                    /**
                     * @description SHA-256 of the whole file.
                     * @example sha-256=ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=
                     */
                    Digest?: string;
                    "Cache-Control": components["headers"]["ArtifactCacheControl"];
                    ETag: components["headers"]["ArtifactETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /**
             * @description The requested byte range of the file, or for several ranges (`bytes=0-99, 500-599`, as
             *     electron-updater's differential downloader asks) a `multipart/byteranges` body with one part each.
             */
            206: {
                headers: {
                    /**
                     * @description The range sent and the whole size (one range only).
                     * @example bytes 0-1023/48213504
                     */
                    "Content-Range"?: string;
                    "Cache-Control": components["headers"]["ArtifactCacheControl"];
                    ETag: components["headers"]["ArtifactETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "multipart/byteranges": string;
                };
            };
            /**
             * @description Object storage with `FERRY_DOWNLOAD_MODE=redirect`: the file is at a presigned URL of the
             *     object store, valid for `FERRY_S3_PRESIGN_SECONDS`. The redirect itself is `no-store`.
             */
            302: {
                headers: {
                    /**
                     * @description Presigned URL of the file in the object store.
                     * @example https://artifacts.example.com/ferry/art_8q1w?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=9f2c4e1d
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The `If-None-Match` ETag matches; the cached copy is current. */
            304: {
                headers: {
                    ETag: components["headers"]["ArtifactETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listChannels: {
        parameters: {
            query?: {
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of channels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "ch_5t1b",
                     *           "name": "beta",
                     *           "description": "Weekly builds for early adopters.",
                     *           "createdAt": "2025-03-14T09:40:00Z"
                     *         },
                     *         {
                     *           "id": "ch_1a9z",
                     *           "name": "stable",
                     *           "description": "What most users run.",
                     *           "createdAt": "2025-03-14T09:26:53Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["ChannelList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createChannel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "nightly",
                 *       "description": "Builds from main, every night."
                 *     }
                 */
                "application/json": components["schemas"]["ChannelCreate"];
            };
        };
        responses: {
            /** @description The channel was created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_5t1b",
                     *       "name": "nightly",
                     *       "description": "Builds from main, every night.",
                     *       "createdAt": "2025-03-14T09:40:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The channel's id.
                 * @example ch_5t1b
                 */
                id: components["parameters"]["ChannelId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel was deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The channel's id.
                 * @example ch_5t1b
                 */
                id: components["parameters"]["ChannelId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Builds for early adopters, every Tuesday."
                 *     }
                 */
                "application/json": components["schemas"]["ChannelUpdate"];
            };
        };
        responses: {
            /** @description The updated channel. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ch_5t1b",
                     *       "name": "beta",
                     *       "description": "Builds for early adopters, every Tuesday.",
                     *       "createdAt": "2025-03-14T09:40:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listPlatforms: {
        parameters: {
            query?: {
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of platforms. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "pl_6m2k",
                     *           "name": "darwin",
                     *           "updater": "electron-builtin",
                     *           "createdAt": "2025-03-14T09:41:30Z"
                     *         },
                     *         {
                     *           "id": "pl_8r4n",
                     *           "name": "linux",
                     *           "updater": "electron-updater",
                     *           "createdAt": "2025-03-14T09:42:00Z"
                     *         },
                     *         {
                     *           "id": "pl_3w8d",
                     *           "name": "windows",
                     *           "updater": "squirrel-windows",
                     *           "createdAt": "2025-03-14T09:41:00Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["PlatformList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createPlatform: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "macos",
                 *       "updater": "sparkle"
                 *     }
                 */
                "application/json": components["schemas"]["PlatformCreate"];
            };
        };
        responses: {
            /** @description The platform was created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "pl_3w8d",
                     *       "name": "macos",
                     *       "updater": "sparkle",
                     *       "createdAt": "2025-03-14T09:41:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Platform"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deletePlatform: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The platform's id.
                 * @example pl_3w8d
                 */
                id: components["parameters"]["PlatformId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The platform was deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updatePlatform: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The platform's id.
                 * @example pl_3w8d
                 */
                id: components["parameters"]["PlatformId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "updater": "ferry"
                 *     }
                 */
                "application/json": components["schemas"]["PlatformUpdate"];
            };
        };
        responses: {
            /** @description The updated platform. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "pl_3w8d",
                     *       "name": "windows",
                     *       "updater": "ferry",
                     *       "createdAt": "2025-03-14T09:41:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Platform"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listArchs: {
        parameters: {
            query?: {
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of architectures. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "ar_2c7v",
                     *           "name": "arm64",
                     *           "createdAt": "2025-03-14T09:43:00Z"
                     *         },
                     *         {
                     *           "id": "ar_0x64",
                     *           "name": "x64",
                     *           "createdAt": "2025-03-14T09:26:53Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["ArchList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createArch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "ia32"
                 *     }
                 */
                "application/json": components["schemas"]["ArchCreate"];
            };
        };
        responses: {
            /** @description The architecture was created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ar_2c7v",
                     *       "name": "ia32",
                     *       "createdAt": "2025-03-14T09:43:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Arch"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteArch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The architecture's id.
                 * @example ar_2c7v
                 */
                id: components["parameters"]["ArchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The architecture was deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateArch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The architecture's id.
                 * @example ar_2c7v
                 */
                id: components["parameters"]["ArchId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "aarch64"
                 *     }
                 */
                "application/json": components["schemas"]["ArchUpdate"];
            };
        };
        responses: {
            /** @description The updated architecture. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ar_2c7v",
                     *       "name": "aarch64",
                     *       "createdAt": "2025-03-14T09:43:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Arch"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listTeamUsers: {
        parameters: {
            query?: {
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of team users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "usr_3h8c",
                     *           "email": "grace@acme.test",
                     *           "name": "Grace Hopper",
                     *           "role": "user",
                     *           "createdAt": "2025-03-14T10:02:00Z",
                     *           "permissions": {
                     *             "apps": {
                     *               "create": {
                     *                 "enabled": false
                     *               },
                     *               "edit": {
                     *                 "enabled": true,
                     *                 "allowed": [
                     *                   "harbor-notes"
                     *                 ]
                     *               },
                     *               "delete": {
                     *                 "enabled": false
                     *               },
                     *               "upload": {
                     *                 "enabled": true,
                     *                 "allowed": [
                     *                   "harbor-notes"
                     *                 ]
                     *               },
                     *               "download": {
                     *                 "enabled": true
                     *               }
                     *             },
                     *             "channels": {
                     *               "create": {
                     *                 "enabled": false
                     *               },
                     *               "edit": {
                     *                 "enabled": false
                     *               },
                     *               "delete": {
                     *                 "enabled": false
                     *               }
                     *             },
                     *             "platforms": {
                     *               "create": {
                     *                 "enabled": false
                     *               },
                     *               "edit": {
                     *                 "enabled": false
                     *               },
                     *               "delete": {
                     *                 "enabled": false
                     *               }
                     *             },
                     *             "archs": {
                     *               "create": {
                     *                 "enabled": false
                     *               },
                     *               "edit": {
                     *                 "enabled": false
                     *               },
                     *               "delete": {
                     *                 "enabled": false
                     *               }
                     *             }
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["TeamUserList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createTeamUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "grace@acme.test",
                 *       "name": "Grace Hopper",
                 *       "password": "a-long-initial-passphrase",
                 *       "permissions": {
                 *         "apps": {
                 *           "upload": {
                 *             "enabled": true,
                 *             "allowed": [
                 *               "harbor-notes"
                 *             ]
                 *           },
                 *           "download": {
                 *             "enabled": true
                 *           },
                 *           "edit": {
                 *             "enabled": true,
                 *             "allowed": [
                 *               "harbor-notes"
                 *             ]
                 *           }
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TeamUserCreate"];
            };
        };
        responses: {
            /** @description The user was added. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteTeamUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The team user's id.
                 * @example usr_3h8c
                 */
                id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user was removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateTeamUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The team user's id.
                 * @example usr_3h8c
                 */
                id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "permissions": {
                 *         "apps": {
                 *           "upload": {
                 *             "enabled": true
                 *           },
                 *           "download": {
                 *             "enabled": true
                 *           }
                 *         },
                 *         "channels": {
                 *           "create": {
                 *             "enabled": true
                 *           }
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TeamUserUpdate"];
            };
        };
        responses: {
            /** @description The updated user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "usr_3h8c",
                     *       "email": "grace@acme.test",
                     *       "name": "Grace Hopper",
                     *       "role": "user",
                     *       "createdAt": "2025-03-14T10:02:00Z",
                     *       "permissions": {
                     *         "apps": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           },
                     *           "upload": {
                     *             "enabled": true
                     *           },
                     *           "download": {
                     *             "enabled": true
                     *           }
                     *         },
                     *         "channels": {
                     *           "create": {
                     *             "enabled": true
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           }
                     *         },
                     *         "platforms": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           }
                     *         },
                     *         "archs": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TeamUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateAdminPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "currentPassword": "correct-horse-battery-staple",
                 *       "newPassword": "tr0ub4dor-and-three-more-words"
                 *     }
                 */
                "application/json": components["schemas"]["AdminPasswordUpdate"];
            };
        };
        responses: {
            /** @description The password was changed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            429: components["responses"]["TooManyLoginAttempts"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listApiTokens: {
        parameters: {
            query?: {
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of API tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "tok_4Rk9Wq2n",
                     *           "name": "github-actions-release",
                     *           "createdBy": "usr_3h8c",
                     *           "createdAt": "2025-03-14T10:30:00Z",
                     *           "expiresAt": "2026-03-14T00:00:00Z",
                     *           "lastUsedAt": "2025-03-14T11:02:00Z",
                     *           "permissions": {
                     *             "apps": {
                     *               "create": {
                     *                 "enabled": false
                     *               },
                     *               "edit": {
                     *                 "enabled": false
                     *               },
                     *               "delete": {
                     *                 "enabled": false
                     *               },
                     *               "upload": {
                     *                 "enabled": true,
                     *                 "allowed": [
                     *                   "harbor-notes"
                     *                 ]
                     *               },
                     *               "download": {
                     *                 "enabled": false
                     *               }
                     *             },
                     *             "channels": {
                     *               "create": {
                     *                 "enabled": false
                     *               },
                     *               "edit": {
                     *                 "enabled": false
                     *               },
                     *               "delete": {
                     *                 "enabled": false
                     *               }
                     *             },
                     *             "platforms": {
                     *               "create": {
                     *                 "enabled": false
                     *               },
                     *               "edit": {
                     *                 "enabled": false
                     *               },
                     *               "delete": {
                     *                 "enabled": false
                     *               }
                     *             },
                     *             "archs": {
                     *               "create": {
                     *                 "enabled": false
                     *               },
                     *               "edit": {
                     *                 "enabled": false
                     *               },
                     *               "delete": {
                     *                 "enabled": false
                     *               }
                     *             }
                     *           }
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["ApiTokenList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "github-actions-release",
                 *       "permissions": {
                 *         "apps": {
                 *           "upload": {
                 *             "enabled": true,
                 *             "allowed": [
                 *               "harbor-notes"
                 *             ]
                 *           }
                 *         }
                 *       },
                 *       "expiresAt": "2030-03-14T00:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["ApiTokenCreate"];
            };
        };
        responses: {
            /** @description The token was created; `token` is shown only here. */
            201: {
                headers: {
                    /**
                     * @description Always `no-store`; the response carries a secret.
                     * @example no-store
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "tok_4Rk9Wq2n",
                     *       "name": "github-actions-release",
                     *       "token": "ferry_7Qd2kV9mXc4Lp0sRt8WbZy3Hn6Jf1GaE",
                     *       "createdBy": "usr_3h8c",
                     *       "createdAt": "2025-03-14T10:30:00Z",
                     *       "expiresAt": "2030-03-14T00:00:00Z",
                     *       "lastUsedAt": null,
                     *       "permissions": {
                     *         "apps": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           },
                     *           "upload": {
                     *             "enabled": true,
                     *             "allowed": [
                     *               "harbor-notes"
                     *             ]
                     *           },
                     *           "download": {
                     *             "enabled": false
                     *           }
                     *         },
                     *         "channels": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           }
                     *         },
                     *         "platforms": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           }
                     *         },
                     *         "archs": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ApiTokenCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    revokeApiToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The API token's id.
                 * @example tok_4Rk9Wq2n
                 */
                id: components["parameters"]["ApiTokenId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token was revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The team's subscriptions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "whk_7Hc2Lq9P",
                     *           "url": "https://hooks.example.org/ferry",
                     *           "description": "Open an incident when a rollout pauses",
                     *           "events": [
                     *             "version.paused",
                     *             "version.pulled"
                     *           ],
                     *           "apps": [
                     *             "harbor-notes"
                     *           ],
                     *           "enabled": true,
                     *           "disabledReason": null,
                     *           "createdAt": "2025-03-14T10:30:00Z",
                     *           "updatedAt": "2025-03-14T10:30:00Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.org/ferry",
                 *       "description": "Open an incident when a rollout pauses",
                 *       "events": [
                 *         "version.paused",
                 *         "version.pulled"
                 *       ],
                 *       "apps": [
                 *         "harbor-notes"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description The subscription was created; `secret` is shown only here. */
            201: {
                headers: {
                    /**
                     * @description Always `no-store`; the response carries a secret.
                     * @example no-store
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whk_7Hc2Lq9P",
                     *       "url": "https://hooks.example.org/ferry",
                     *       "description": "Open an incident when a rollout pauses",
                     *       "events": [
                     *         "version.paused",
                     *         "version.pulled"
                     *       ],
                     *       "apps": [
                     *         "harbor-notes"
                     *       ],
                     *       "enabled": true,
                     *       "disabledReason": null,
                     *       "createdAt": "2025-03-14T10:30:00Z",
                     *       "updatedAt": "2025-03-14T10:30:00Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whk_7Hc2Lq9P",
                     *       "url": "https://hooks.example.org/ferry",
                     *       "description": "Open an incident when a rollout pauses",
                     *       "events": [
                     *         "version.paused",
                     *         "version.pulled"
                     *       ],
                     *       "apps": [
                     *         "harbor-notes"
                     *       ],
                     *       "enabled": true,
                     *       "disabledReason": null,
                     *       "createdAt": "2025-03-14T10:30:00Z",
                     *       "updatedAt": "2025-03-14T10:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription was deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "enabled": true
                 *     }
                 */
                "application/json": components["schemas"]["WebhookUpdate"];
            };
        };
        responses: {
            /** @description The subscription as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whk_7Hc2Lq9P",
                     *       "url": "https://hooks.example.org/ferry",
                     *       "description": "Open an incident when a rollout pauses",
                     *       "events": [
                     *         "version.paused",
                     *         "version.pulled"
                     *       ],
                     *       "apps": [
                     *         "harbor-notes"
                     *       ],
                     *       "enabled": true,
                     *       "disabledReason": null,
                     *       "createdAt": "2025-03-14T10:30:00Z",
                     *       "updatedAt": "2025-03-14T10:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "dlv_2Kd8Rt4Y",
                     *           "eventId": "msg_2xQ7wHnLk3Vz9TfR1cPm8B",
                     *           "event": "version.paused",
                     *           "status": "pending",
                     *           "attempts": 3,
                     *           "responseStatus": 503,
                     *           "error": "HTTP 503",
                     *           "lastAttemptAt": "2025-03-14T10:32:40Z",
                     *           "nextAttemptAt": "2025-03-14T10:37:40Z",
                     *           "createdAt": "2025-03-14T10:30:00Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
                /**
                 * @description The delivery's id, from the delivery log.
                 * @example dlv_2Kd8Rt4Y
                 */
                delivery: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new delivery, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "dlv_9Pq3Zm1C",
                     *       "eventId": "msg_2xQ7wHnLk3Vz9TfR1cPm8B",
                     *       "event": "version.paused",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "responseStatus": null,
                     *       "error": null,
                     *       "lastAttemptAt": null,
                     *       "nextAttemptAt": "2025-03-14T11:00:00Z",
                     *       "createdAt": "2025-03-14T11:00:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The subscription's id.
                 * @example whk_7Hc2Lq9P
                 */
                id: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test delivery, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "dlv_5Wn7Bv2X",
                     *       "eventId": "msg_8hT3kQ1mZx7Rc2VbN9LpY4",
                     *       "event": "webhook.test",
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "responseStatus": null,
                     *       "error": null,
                     *       "lastAttemptAt": null,
                     *       "nextAttemptAt": "2025-03-14T10:30:00Z",
                     *       "createdAt": "2025-03-14T10:30:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    callMcp: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Streamable HTTP asks every client to accept both answers, `application/json` and `text/event-stream`; this server answers JSON.
                 * @example application/json, text/event-stream
                 */
                Accept: string;
                /** @description Never sent to this stateless endpoint; a request that carries one is refused. */
                "Mcp-Session-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "jsonrpc": "2.0",
                 *       "id": 1,
                 *       "method": "tools/list"
                 *     }
                 */
                "application/json": components["schemas"]["JsonRpcMessage"];
            };
        };
        responses: {
            /** @description The JSON-RPC response (a JSON-RPC error too, such as an unknown tool). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jsonrpc": "2.0",
                     *       "id": 1,
                     *       "result": {
                     *         "tools": [
                     *           {
                     *             "name": "search_docs",
                     *             "title": "Search the Ferry docs",
                     *             "annotations": {
                     *               "readOnlyHint": true
                     *             }
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["JsonRpcMessage"];
                };
            };
            /** @description A notification or a response was accepted; there is no answer to it. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description This copy of Ferry serves no MCP (the in-browser sandbox, or an install without the MCP server's files, such as the container image). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "https://ferry.example.org/docs/troubleshooting#not-found",
                     *       "title": "Not found",
                     *       "status": 404,
                     *       "detail": "This server does not serve MCP (the in-browser sandbox has no /mcp).",
                     *       "instance": "/mcp"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["JsonBodyTooLarge"];
            /** @description The token made more tool calls this minute than `FERRY_MCP_CALLS_PER_MINUTE`; `Retry-After` says when to retry. */
            429: {
                headers: {
                    /**
                     * @description Seconds until the token may call a tool again.
                     * @example 12
                     */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "https://ferry.example.org/docs/troubleshooting#too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "This token made 60 tool calls in the last minute (FERRY_MCP_CALLS_PER_MINUTE); retry in 12 s.",
                     *       "instance": "/mcp"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server is up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "version": "1.0.0",
                     *       "uptimeSeconds": 86400,
                     *       "checks": {
                     *         "database": {
                     *           "status": "ok",
                     *           "latencyMs": 2
                     *         },
                     *         "storage": {
                     *           "status": "ok",
                     *           "latencyMs": 11
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAuditEntries: {
        parameters: {
            query?: {
                /**
                 * @description Only entries about this app (slug).
                 * @example harbor-notes
                 */
                app?: components["schemas"]["Slug"];
                /**
                 * @description Only entries by this user, named by id or email (their API tokens included), or `system`.
                 * @example grace@acme.test
                 */
                actor?: string;
                /**
                 * @description Only this action (`version.pause`), or every action that starts with a prefix ending in a dot (`version.`).
                 * @example version.
                 */
                action?: string;
                /**
                 * @description Only entries at or after this time.
                 * @example 2025-03-01T00:00:00Z
                 */
                from?: components["schemas"]["Timestamp"];
                /**
                 * @description Only entries before this time.
                 * @example 2025-04-01T00:00:00Z
                 */
                to?: components["schemas"]["Timestamp"];
                /**
                 * @description Page size.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `nextCursor` of the previous page; leave out for the first page.
                 * @example eyJpZCI6InZlcl8yUW04In0
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of audit entries, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "aud_8Jq2Lm4xT0",
                     *           "at": "2025-03-14T11:20:00.000Z",
                     *           "actor": {
                     *             "type": "system",
                     *             "id": "system",
                     *             "name": "Ferry",
                     *             "email": null,
                     *             "createdBy": null
                     *           },
                     *           "operationId": null,
                     *           "action": "version.pause",
                     *           "target": {
                     *             "type": "version",
                     *             "id": "ver_2Qm8",
                     *             "app": "harbor-notes"
                     *           },
                     *           "changes": {
                     *             "paused": {
                     *               "from": false,
                     *               "to": true
                     *             },
                     *             "pauseReason": {
                     *               "to": "3 of 10 health reports failed (30 %), above the 20 % this version allows"
                     *             }
                     *           },
                     *           "address": null
                     *         },
                     *         {
                     *           "id": "aud_5Tr7Kw1pZ3",
                     *           "at": "2025-03-14T10:45:00.000Z",
                     *           "actor": {
                     *             "type": "token",
                     *             "id": "tok_4Rk9Wq2n",
                     *             "name": "github-actions-release",
                     *             "email": null,
                     *             "createdBy": {
                     *               "id": "usr_3h8c",
                     *               "email": "grace@acme.test"
                     *             }
                     *           },
                     *           "operationId": "uploadVersion",
                     *           "action": "version.upload",
                     *           "target": {
                     *             "type": "version",
                     *             "id": "ver_2Qm8",
                     *             "app": "harbor-notes"
                     *           },
                     *           "changes": {},
                     *           "address": "203.0.113.7"
                     *         },
                     *         {
                     *           "id": "aud_1Fh6Ns9vB2",
                     *           "at": "2025-03-14T10:02:00.000Z",
                     *           "actor": {
                     *             "type": "user",
                     *             "id": "usr_3h8c",
                     *             "name": "Grace Hopper",
                     *             "email": "grace@acme.test",
                     *             "createdBy": null
                     *           },
                     *           "operationId": "updateApp",
                     *           "action": "app.update",
                     *           "target": {
                     *             "type": "app",
                     *             "id": "harbor-notes",
                     *             "app": "harbor-notes"
                     *           },
                     *           "changes": {
                     *             "name": {
                     *               "from": "Harbor",
                     *               "to": "Harbor Notes"
                     *             }
                     *           },
                     *           "address": "198.51.100.23"
                     *         }
                     *       ],
                     *       "nextCursor": "eyJhIjoiMjAyNS0wMy0xNFQxMDowMjowMC4wMDBaIiwiaSI6ImF1ZF8xRmg2TnM5dkIyIn0"
                     *     }
                     */
                    "application/json": components["schemas"]["AuditEntryList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    whoami: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user": {
                     *         "id": "usr_3h8c",
                     *         "email": "grace@acme.test",
                     *         "name": "Grace Hopper",
                     *         "role": "user",
                     *         "createdAt": "2025-03-14T10:02:00Z"
                     *       },
                     *       "team": {
                     *         "id": "tm_9x2q",
                     *         "name": "Acme Desktop",
                     *         "createdAt": "2025-03-14T09:26:53Z"
                     *       },
                     *       "permissions": {
                     *         "apps": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": true,
                     *             "allowed": [
                     *               "harbor-notes"
                     *             ]
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           },
                     *           "upload": {
                     *             "enabled": true,
                     *             "allowed": [
                     *               "harbor-notes"
                     *             ]
                     *           },
                     *           "download": {
                     *             "enabled": true
                     *           }
                     *         },
                     *         "channels": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           }
                     *         },
                     *         "platforms": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           }
                     *         },
                     *         "archs": {
                     *           "create": {
                     *             "enabled": false
                     *           },
                     *           "edit": {
                     *             "enabled": false
                     *           },
                     *           "delete": {
                     *             "enabled": false
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["WhoAmI"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    checkForUpdate: {
        parameters: {
            query: {
                /**
                 * @description The version the client runs (semver).
                 * @example 1.2.3
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description The channel the client follows.
                 * @example stable
                 */
                channel?: string;
                /**
                 * @description The client's platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description The client's architecture name.
                 * @example x64
                 */
                arch: string;
                /**
                 * @description The updater format of the answer. Without it the platform's `updater` decides (a platform
                 *     the team has not created answers in `ferry` format). `ferry`: `UpdateInfo`;
                 *     `electron-builtin`: Squirrel.Mac JSON; `tauri`: Tauri's JSON (platform and arch are Ferry
                 *     names here; Tauri's own names go to [the Tauri endpoint](/docs/api/info/tauri));
                 *     `electron-updater`: `latest.yml` content; `squirrel-windows`: `RELEASES` content;
                 *     `velopack`: Velopack's `releases.<channel>.json` feed; `sparkle`: a Sparkle appcast; `msix`: the
                 *     JSON of Electron's MSIX updater (package URLs at [MSIX package](/docs/api/info/msix-package) paths).
                 * @example ferry
                 */
                format?: components["schemas"]["UpdaterFormat"];
                /**
                 * @description The `X-Ferry-Cohort` header as a query parameter, for clients that only fetch a URL (the header wins when both are sent).
                 * @example acme-corp
                 */
                cohort?: components["parameters"]["CohortQuery"];
                /**
                 * @description The `X-Ferry-Attributes` header as a query parameter (the header wins when both are sent).
                 * @example os_version=14.2.1,edition=pro
                 */
                attributes?: components["parameters"]["AttributesQuery"];
                /**
                 * @description The `X-Ferry-Manual` header as a query parameter (the header wins when both are sent).
                 * @example true
                 */
                manual?: components["parameters"]["ManualQuery"];
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
                /**
                 * @description The device's cohort (an organisation, tenant or licence id the app chooses), which pins, holds and targeting rules name. Never a secret.
                 * @example acme-corp
                 */
                "X-Ferry-Cohort"?: components["parameters"]["Cohort"];
                /**
                 * @description Up to 8 attributes the device declares for targeting conditions, as `key=value` pairs separated by commas; keys are lower-case letters, digits and `_` (at most 32 characters), values at most 64 characters without `,` or `=`. Never secrets.
                 * @example os_version=14.2.1,edition=pro
                 */
                "X-Ferry-Attributes"?: components["parameters"]["Attributes"];
                /**
                 * @description `true` when a person asked for this check ("Check for updates"): a ramp's percentage is skipped, never a pull, a pause, a hold, a pin or a targeting rule.
                 * @example true
                 */
                "X-Ferry-Manual"?: components["parameters"]["Manual"];
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description An update is available (or, for `electron-updater` and `squirrel-windows`, the document
             *     the client compares with its own version).
             */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "version": "1.3.0",
                     *       "currentVersion": "1.2.3",
                     *       "channel": "stable",
                     *       "critical": true,
                     *       "intermediate": true,
                     *       "changelog": "- New storage format (required before 1.4.0)\n",
                     *       "publishedAt": "2025-02-01T12:00:00Z",
                     *       "artifacts": [
                     *         {
                     *           "id": "art_5d2k",
                     *           "fileName": "HarborNotes-Setup-1.3.0.exe",
                     *           "packageType": "exe",
                     *           "size": 84211234,
                     *           "sha256": "3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d",
                     *           "sha512": "5267768822ee624d48fce15ec5ca79cbd602cb7f4c2157a516556991f22ef8c7b5ef7b18d1ff41c59370efb0858651d44a936c11b7b144c48fe04df3c6a3e8da",
                     *           "downloadUrl": "https://updates.acme.test/v1/apps/harbor-notes/versions/ver_1Kp3/artifacts/art_5d2k/download"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["UpdateInfo"] | components["schemas"]["SquirrelMacUpdate"] | components["schemas"]["TauriUpdate"] | components["schemas"]["VelopackFeed"];
                    /**
                     * @example version: '1.4.0'
                     *     files:
                     *       - url: 'https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3j/download'
                     *         sha512: 'H0D8ktokFpR1CXnubPWC8tXX0o4YM13gWrxU0FYOD1MChgxlK/CNVgJSql50IQVG82n7u86MEs/HlXsmUv6adQ=='
                     *         size: 85102930
                     *     path: 'https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3j/download'
                     *     sha512: 'H0D8ktokFpR1CXnubPWC8tXX0o4YM13gWrxU0FYOD1MChgxlK/CNVgJSql50IQVG82n7u86MEs/HlXsmUv6adQ=='
                     *     releaseDate: '2025-03-14T10:15:00Z'
                     *     releaseNotes: '- Tags for notes'
                     *     stagingPercentage: 25
                     */
                    "application/x-yaml": string;
                    "application/rss+xml": string;
                    /**
                     * @example 86F7E437FAA5A7FCE15D1DDCB9EAEAEA377667B8 harbor-notes-1.3.0-full.nupkg 84211234
                     *     E9D71F5EE7C92D6DC9E92FFDAD17B8BD49418F98 harbor-notes-1.4.0-delta.nupkg 2140311 # 25%
                     *     84A516841BA77A5B4648DE2CD0DFCB30EA46DBB4 harbor-notes-1.4.0-full.nupkg 85102930 # 25%
                     */
                    "text/plain": string;
                };
            };
            /** @description No update: the client runs the newest version it may receive. The body is empty. */
            204: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    explainUpdate: {
        parameters: {
            query: {
                /**
                 * @description The version the device runs (semver).
                 * @example 1.3.0
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description The channel the device follows.
                 * @example stable
                 */
                channel?: string;
                /**
                 * @description The device's platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description The device's architecture name.
                 * @example x64
                 */
                arch: string;
                /**
                 * @description The updater format asked for; without it the platform's `updater` decides.
                 * @example ferry
                 */
                format?: components["schemas"]["UpdaterFormat"];
                /**
                 * @description The device's `X-Ferry-Device-Id` (electron-updater's `x-user-staging-id`), which decides its rollout buckets.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                deviceId: string;
                /**
                 * @description The `X-Ferry-Cohort` header as a query parameter, for clients that only fetch a URL (the header wins when both are sent).
                 * @example acme-corp
                 */
                cohort?: components["parameters"]["CohortQuery"];
                /**
                 * @description The `X-Ferry-Attributes` header as a query parameter (the header wins when both are sent).
                 * @example os_version=14.2.1,edition=pro
                 */
                attributes?: components["parameters"]["AttributesQuery"];
                /**
                 * @description The `X-Ferry-Manual` header as a query parameter (the header wins when both are sent).
                 * @example true
                 */
                manual?: components["parameters"]["ManualQuery"];
            };
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The decision and the reason for every version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "app": "harbor-notes",
                     *       "channel": "stable",
                     *       "platform": "windows",
                     *       "arch": "x64",
                     *       "currentVersion": "1.3.0",
                     *       "format": "ferry",
                     *       "rolloutMode": "server",
                     *       "inCatalog": true,
                     *       "offered": "1.3.1",
                     *       "critical": false,
                     *       "downgrade": false,
                     *       "versions": [
                     *         {
                     *           "id": "ver_2Qm8",
                     *           "version": "1.4.0",
                     *           "verdict": "skipped",
                     *           "rule": "bucket",
                     *           "reason": "The device's bucket 57 is not below the rollout percentage 10 (ramp step 2 of 4).",
                     *           "bucket": 57,
                     *           "rolloutPercentage": 10
                     *         },
                     *         {
                     *           "id": "ver_1Kp3",
                     *           "version": "1.3.1",
                     *           "verdict": "offered",
                     *           "rule": "offered",
                     *           "reason": "The newest version above 1.3.0 that includes this device.",
                     *           "bucket": null,
                     *           "rolloutPercentage": 100
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["UpdateExplanation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listRules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app's rules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "rul_4Tn8Vq2K",
                     *           "kind": "pin",
                     *           "cohort": "acme-corp",
                     *           "range": "1.4.x",
                     *           "version": null,
                     *           "cohorts": null,
                     *           "devices": null,
                     *           "deny": null,
                     *           "conditions": null,
                     *           "reason": "Acme validates 2.0 first",
                     *           "expiresAt": null,
                     *           "createdAt": "2025-03-14T10:30:00Z",
                     *           "createdBy": "usr_8Hx2"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["RuleList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleCreate"];
            };
        };
        responses: {
            /** @description The rule, in force now. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "rul_4Tn8Vq2K",
                     *       "kind": "pin",
                     *       "cohort": "acme-corp",
                     *       "range": "1.4.x",
                     *       "version": null,
                     *       "cohorts": null,
                     *       "devices": null,
                     *       "deny": null,
                     *       "conditions": null,
                     *       "reason": "Acme validates 2.0 first",
                     *       "expiresAt": null,
                     *       "createdAt": "2025-03-14T10:30:00Z",
                     *       "createdBy": "usr_8Hx2"
                     *     }
                     */
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["JsonBodyTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The rule's id.
                 * @example rul_4Tn8Vq2K
                 */
                rule: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule was deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    reportUpdateOutcome: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "deviceId": "6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10",
                 *       "version": "1.4.0",
                 *       "channel": "stable",
                 *       "platform": "windows",
                 *       "arch": "x64",
                 *       "outcome": "failed",
                 *       "reason": "Crash on start: missing VCRUNTIME140.dll",
                 *       "fromVersion": "1.3.0"
                 *     }
                 */
                "application/json": components["schemas"]["HealthReport"];
            };
        };
        responses: {
            /** @description The report was counted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "counted": true,
                     *       "paused": false
                     *     }
                     */
                    "application/json": components["schemas"]["HealthReportReceipt"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["JsonBodyTooLarge"];
            429: components["responses"]["TooManyHealthReports"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getLatestBuild: {
        parameters: {
            query: {
                /**
                 * @description The package type to link to.
                 * @example dmg
                 */
                packageType: components["schemas"]["PackageType"];
                /**
                 * @description Platform name.
                 * @example darwin
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example universal
                 */
                arch: string;
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the artifact's download URL. */
            302: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    /**
                     * @description The artifact's download URL.
                     * @example https://updates.acme.test/v1/apps/harbor-notes/versions/ver_4Lx7/artifacts/art_8q1w/download
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSquirrelReleases: {
        parameters: {
            query?: {
                /**
                 * @description The version the client runs (Squirrel sends it); without it every published package is listed.
                 * @example 1.3.0
                 */
                localVersion?: components["schemas"]["Semver"];
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feed. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example 86F7E437FAA5A7FCE15D1DDCB9EAEAEA377667B8 harbor-notes-1.3.0-full.nupkg 84211234
                     *     E9D71F5EE7C92D6DC9E92FFDAD17B8BD49418F98 harbor-notes-1.4.0-delta.nupkg 2140311 # 25%
                     *     84A516841BA77A5B4648DE2CD0DFCB30EA46DBB4 harbor-notes-1.4.0-full.nupkg 85102930 # 25%
                     */
                    "text/plain": string;
                };
            };
            304: components["responses"]["UpdateNotModified"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSquirrelPackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: string;
                /**
                 * @description A package file name listed in the feed's `RELEASES`.
                 * @example harbor-notes-1.4.0-full.nupkg
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the package's download URL. */
            302: {
                headers: {
                    /**
                     * @description The artifact's download URL.
                     * @example https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_9n2v/download
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSquirrelMacUpdate: {
        parameters: {
            query: {
                /**
                 * @description The version the app runs (semver).
                 * @example 1.2.3
                 */
                version: components["schemas"]["Semver"];
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An update is available. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://updates.acme.test/v1/apps/harbor-notes/versions/ver_4Lx7/artifacts/art_8q1w/download",
                     *       "name": "1.4.0",
                     *       "notes": "- Tags for notes",
                     *       "pub_date": "2025-03-14T10:15:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["SquirrelMacUpdate"];
                };
            };
            /** @description No update. The body is empty. */
            204: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getElectronUpdaterFeed: {
        parameters: {
            query?: {
                /**
                 * @description The `X-Ferry-Cohort` header as a query parameter, for clients that only fetch a URL (the header wins when both are sent).
                 * @example acme-corp
                 */
                cohort?: components["parameters"]["CohortQuery"];
                /**
                 * @description The `X-Ferry-Attributes` header as a query parameter (the header wins when both are sent).
                 * @example os_version=14.2.1,edition=pro
                 */
                attributes?: components["parameters"]["AttributesQuery"];
                /**
                 * @description The `X-Ferry-Manual` header as a query parameter (the header wins when both are sent).
                 * @example true
                 */
                manual?: components["parameters"]["ManualQuery"];
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
                /**
                 * @description The device's cohort (an organisation, tenant or licence id the app chooses), which pins, holds and targeting rules name. Never a secret.
                 * @example acme-corp
                 */
                "X-Ferry-Cohort"?: components["parameters"]["Cohort"];
                /**
                 * @description Up to 8 attributes the device declares for targeting conditions, as `key=value` pairs separated by commas; keys are lower-case letters, digits and `_` (at most 32 characters), values at most 64 characters without `,` or `=`. Never secrets.
                 * @example os_version=14.2.1,edition=pro
                 */
                "X-Ferry-Attributes"?: components["parameters"]["Attributes"];
                /**
                 * @description `true` when a person asked for this check ("Check for updates"): a ramp's percentage is skipped, never a pull, a pause, a hold, a pin or a targeting rule.
                 * @example true
                 */
                "X-Ferry-Manual"?: components["parameters"]["Manual"];
                /**
                 * @description The per-install UUID electron-updater sends on every request.
                 * @example 0b8e5c44-5d7a-4a58-9b0c-2c6a4b1f9e21
                 */
                "x-user-staging-id"?: string;
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
                /**
                 * @description The version the app runs (semver); put `app.getVersion()` into the feed URL.
                 * @example 1.2.3
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description The channel file electron-updater asks for: `latest.yml`, `latest-mac.yml`, `latest-linux.yml`,
                 *     `latest-linux-arm64.yml` or `<channel>….yml`. The answer depends only on the path before it.
                 * @example latest.yml
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel file. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example version: '1.4.0'
                     *     files:
                     *       - url: 'https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3j/download'
                     *         sha512: 'H0D8ktokFpR1CXnubPWC8tXX0o4YM13gWrxU0FYOD1MChgxlK/CNVgJSql50IQVG82n7u86MEs/HlXsmUv6adQ=='
                     *         size: 85102930
                     *     path: 'https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3j/download'
                     *     sha512: 'H0D8ktokFpR1CXnubPWC8tXX0o4YM13gWrxU0FYOD1MChgxlK/CNVgJSql50IQVG82n7u86MEs/HlXsmUv6adQ=='
                     *     releaseDate: '2025-03-14T10:15:00Z'
                     *     releaseNotes: '- Tags for notes'
                     *     stagingPercentage: 25
                     */
                    "application/x-yaml": string;
                };
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getTauriUpdate: {
        parameters: {
            query?: {
                /**
                 * @description The `X-Ferry-Cohort` header as a query parameter, for clients that only fetch a URL (the header wins when both are sent).
                 * @example acme-corp
                 */
                cohort?: components["parameters"]["CohortQuery"];
                /**
                 * @description The `X-Ferry-Attributes` header as a query parameter (the header wins when both are sent).
                 * @example os_version=14.2.1,edition=pro
                 */
                attributes?: components["parameters"]["AttributesQuery"];
                /**
                 * @description The `X-Ferry-Manual` header as a query parameter (the header wins when both are sent).
                 * @example true
                 */
                manual?: components["parameters"]["ManualQuery"];
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
                /**
                 * @description The device's cohort (an organisation, tenant or licence id the app chooses), which pins, holds and targeting rules name. Never a secret.
                 * @example acme-corp
                 */
                "X-Ferry-Cohort"?: components["parameters"]["Cohort"];
                /**
                 * @description Up to 8 attributes the device declares for targeting conditions, as `key=value` pairs separated by commas; keys are lower-case letters, digits and `_` (at most 32 characters), values at most 64 characters without `,` or `=`. Never secrets.
                 * @example os_version=14.2.1,edition=pro
                 */
                "X-Ferry-Attributes"?: components["parameters"]["Attributes"];
                /**
                 * @description `true` when a person asked for this check ("Check for updates"): a ramp's percentage is skipped, never a pull, a pause, a hold, a pin or a targeting rule.
                 * @example true
                 */
                "X-Ferry-Manual"?: components["parameters"]["Manual"];
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Tauri's `{{target}}`: `windows`, `darwin` or `linux`; the Ferry platform of the same name.
                 * @example darwin
                 */
                target: "windows" | "darwin" | "linux";
                /**
                 * @description Tauri's `{{arch}}`, mapped to a Ferry architecture: `x86_64` → `x64`, `aarch64` → `arm64`, `i686` → `ia32`, `armv7` → `armv7l`.
                 * @example aarch64
                 */
                arch: "x86_64" | "aarch64" | "i686" | "armv7";
                /**
                 * @description Tauri's `{{current_version}}`.
                 * @example 1.2.3
                 */
                currentVersion: components["schemas"]["Semver"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An update is available. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "version": "1.4.0",
                     *       "notes": "- Tags for notes",
                     *       "pub_date": "2025-03-14T10:15:00Z",
                     *       "url": "https://updates.acme.test/v1/apps/harbor-notes/versions/ver_4Lx7/artifacts/art_8q1w/download",
                     *       "signature": "dW50cnVzdGVkIGNvbW1lbnQ6IHNpZ25hdHVyZSBmcm9tIHRhdXJpIHNlY3JldCBrZXkK",
                     *       "critical": false
                     *     }
                     */
                    "application/json": components["schemas"]["TauriUpdate"];
                };
            };
            /** @description No update. The body is empty. */
            204: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getElectronUpdaterFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
                /**
                 * @description The published version the file belongs to.
                 * @example 1.4.0
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description A file name of that version, or `<file name>.blockmap`.
                 * @example HarborNotes-Setup-1.4.0.exe.blockmap
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description The requested range, or several ranges as `multipart/byteranges`. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "multipart/byteranges": string;
                };
            };
            /** @description With object storage and `FERRY_DOWNLOAD_MODE=redirect`, a presigned URL of the file. */
            302: {
                headers: {
                    /**
                     * @description Presigned URL of the file in the object store.
                     * @example https://artifacts.example.com/ferry/art_8q1w?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=9f2c4e1d
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The `If-None-Match` ETag matches. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getVelopackFile: {
        parameters: {
            query?: {
                /**
                 * @description The version the app runs (Velopack sends it). Required for the feed.
                 * @example 1.3.0
                 */
                localVersion?: components["schemas"]["Semver"];
                /**
                 * @description The app's Velopack package id (sent by Velopack, not read).
                 * @example HarborNotes
                 */
                id?: string;
                /**
                 * @description The per-install id Velopack sends; buckets the device when `X-Ferry-Device-Id` is absent.
                 * @example 0b8e5c44-5d7a-4a58-9b0c-2c6a4b1f9e21
                 */
                stagingId?: string;
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
                /**
                 * @description `releases.<velopack channel>.json` (the feed; the Velopack channel in the name is not read,
                 *     the Ferry channel is the path's), or a `.nupkg` file name the feed lists.
                 * @example releases.win.json
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feed. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "Assets": [
                     *         {
                     *           "PackageId": "HarborNotes",
                     *           "Version": "1.4.0",
                     *           "Type": "Delta",
                     *           "FileName": "HarborNotes-1.4.0-delta.nupkg",
                     *           "SHA1": "E9D71F5EE7C92D6DC9E92FFDAD17B8BD49418F98",
                     *           "SHA256": "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
                     *           "Size": 2140311,
                     *           "NotesMarkdown": "- Tags for notes",
                     *           "NotesHtml": ""
                     *         },
                     *         {
                     *           "PackageId": "HarborNotes",
                     *           "Version": "1.4.0",
                     *           "Type": "Full",
                     *           "FileName": "HarborNotes-1.4.0-full.nupkg",
                     *           "SHA1": "84A516841BA77A5B4648DE2CD0DFCB30EA46DBB4",
                     *           "SHA256": "9a8b7c6d5e4f30211203f4e5d6c7b8a99a8b7c6d5e4f30211203f4e5d6c7b8a9",
                     *           "Size": 85102930,
                     *           "NotesMarkdown": "- Tags for notes",
                     *           "NotesHtml": ""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["VelopackFeed"];
                };
            };
            /** @description A package name redirects to its download. */
            302: {
                headers: {
                    /**
                     * @description The artifact's download URL.
                     * @example https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_9n2v/download
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getUpdateKeyDevices: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys and their devices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "day": "2026-11-25",
                     *       "devices": 1200,
                     *       "keys": [
                     *         {
                     *           "updater": "tauri",
                     *           "key": "dW50cnVzdGVkIGNvbW1lbnQ6IG1pbmlzaWduIHB1YmxpYyBrZXk6IDQ1M0E1QjY3OTUxMDlGQzcKUldUSG41R1ZaMXM2UmN3K2FRZkN6bVRsa1hWS3JmREJQcFZyZXJtdnkzR0t3ZkRkWDJRN0NqRncK",
                     *           "role": "current",
                     *           "devices": 900
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["UpdateKeyDevices"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSparkleAppcast: {
        parameters: {
            query: {
                /**
                 * @description The version the app runs (semver).
                 * @example 1.3.0
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description The `X-Ferry-Cohort` header as a query parameter, for clients that only fetch a URL (the header wins when both are sent).
                 * @example acme-corp
                 */
                cohort?: components["parameters"]["CohortQuery"];
                /**
                 * @description The `X-Ferry-Attributes` header as a query parameter (the header wins when both are sent).
                 * @example os_version=14.2.1,edition=pro
                 */
                attributes?: components["parameters"]["AttributesQuery"];
                /**
                 * @description The `X-Ferry-Manual` header as a query parameter (the header wins when both are sent).
                 * @example true
                 */
                manual?: components["parameters"]["ManualQuery"];
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
                /**
                 * @description The device's cohort (an organisation, tenant or licence id the app chooses), which pins, holds and targeting rules name. Never a secret.
                 * @example acme-corp
                 */
                "X-Ferry-Cohort"?: components["parameters"]["Cohort"];
                /**
                 * @description Up to 8 attributes the device declares for targeting conditions, as `key=value` pairs separated by commas; keys are lower-case letters, digits and `_` (at most 32 characters), values at most 64 characters without `,` or `=`. Never secrets.
                 * @example os_version=14.2.1,edition=pro
                 */
                "X-Ferry-Attributes"?: components["parameters"]["Attributes"];
                /**
                 * @description `true` when a person asked for this check ("Check for updates"): a ramp's percentage is skipped, never a pull, a pause, a hold, a pin or a targeting rule.
                 * @example true
                 */
                "X-Ferry-Manual"?: components["parameters"]["Manual"];
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name (`darwin` for Sparkle, `windows` for WinSparkle).
                 * @example darwin
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The appcast. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example <?xml version="1.0" encoding="utf-8"?>
                     *     <rss version="2.0" xmlns:sparkle="http://www.andymatuschak.org/xml-namespaces/sparkle" xmlns:dc="http://purl.org/dc/elements/1.1/">
                     *       <channel>
                     *         <title>Harbor Notes</title>
                     *         <item>
                     *           <title>1.4.0</title>
                     *           <pubDate>Fri, 14 Mar 2025 10:15:00 GMT</pubDate>
                     *           <sparkle:version>1.4.0</sparkle:version>
                     *           <sparkle:shortVersionString>1.4.0</sparkle:shortVersionString>
                     *           <description><![CDATA[- Tags for notes]]></description>
                     *           <enclosure url="https://updates.acme.test/v1/apps/harbor-notes/versions/ver_4Lx7/artifacts/art_8q1w/download" length="85102930" type="application/octet-stream" sparkle:edSignature="7cLALFUHSwvEJWSkV8aMreoBe4fhRa4FncC5NoThKxwThL6FDR7hTiPJh1fo2uagnPogisnQsgFgq6mGkt2RBw=="/>
                     *         </item>
                     *       </channel>
                     *     </rss>
                     */
                    "application/rss+xml": string;
                };
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getElectronUpdaterCohortFeed: {
        parameters: {
            query?: {
                /**
                 * @description The `X-Ferry-Attributes` header as a query parameter (the header wins when both are sent).
                 * @example os_version=14.2.1,edition=pro
                 */
                attributes?: components["parameters"]["AttributesQuery"];
                /**
                 * @description The `X-Ferry-Manual` header as a query parameter (the header wins when both are sent).
                 * @example true
                 */
                manual?: components["parameters"]["ManualQuery"];
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
                /**
                 * @description Up to 8 attributes the device declares for targeting conditions, as `key=value` pairs separated by commas; keys are lower-case letters, digits and `_` (at most 32 characters), values at most 64 characters without `,` or `=`. Never secrets.
                 * @example os_version=14.2.1,edition=pro
                 */
                "X-Ferry-Attributes"?: components["parameters"]["Attributes"];
                /**
                 * @description `true` when a person asked for this check ("Check for updates"): a ramp's percentage is skipped, never a pull, a pause, a hold, a pin or a targeting rule.
                 * @example true
                 */
                "X-Ferry-Manual"?: components["parameters"]["Manual"];
                /**
                 * @description The per-install UUID electron-updater sends on every request.
                 * @example 0b8e5c44-5d7a-4a58-9b0c-2c6a4b1f9e21
                 */
                "x-user-staging-id"?: string;
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The device's cohort (an organisation, tenant or licence id the app chooses), for clients that only fetch a URL.
                 * @example acme-corp
                 */
                cohort: components["schemas"]["CohortKey"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name.
                 * @example windows
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
                /**
                 * @description The version the app runs (semver); put `app.getVersion()` into the feed URL.
                 * @example 1.2.3
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description The channel file electron-updater asks for: `latest.yml`, `latest-mac.yml`, `latest-linux.yml`,
                 *     `latest-linux-arm64.yml` or `<channel>….yml`. The answer depends only on the path before it.
                 * @example latest.yml
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel file. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example version: '1.4.0'
                     *     files:
                     *       - url: 'https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3j/download'
                     *         sha512: 'H0D8ktokFpR1CXnubPWC8tXX0o4YM13gWrxU0FYOD1MChgxlK/CNVgJSql50IQVG82n7u86MEs/HlXsmUv6adQ=='
                     *         size: 85102930
                     *     path: 'https://updates.acme.test/v1/apps/harbor-notes/versions/ver_2Qm8/artifacts/art_7h3j/download'
                     *     sha512: 'H0D8ktokFpR1CXnubPWC8tXX0o4YM13gWrxU0FYOD1MChgxlK/CNVgJSql50IQVG82n7u86MEs/HlXsmUv6adQ=='
                     *     releaseDate: '2025-03-14T10:15:00Z'
                     *     releaseNotes: '- Tags for notes'
                     *     stagingPercentage: 25
                     */
                    "application/x-yaml": string;
                };
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSparkleCohortAppcast: {
        parameters: {
            query: {
                /**
                 * @description The version the app runs (semver).
                 * @example 1.3.0
                 */
                version: components["schemas"]["Semver"];
                /**
                 * @description The `X-Ferry-Attributes` header as a query parameter (the header wins when both are sent).
                 * @example os_version=14.2.1,edition=pro
                 */
                attributes?: components["parameters"]["AttributesQuery"];
                /**
                 * @description The `X-Ferry-Manual` header as a query parameter (the header wins when both are sent).
                 * @example true
                 */
                manual?: components["parameters"]["ManualQuery"];
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
                /**
                 * @description Up to 8 attributes the device declares for targeting conditions, as `key=value` pairs separated by commas; keys are lower-case letters, digits and `_` (at most 32 characters), values at most 64 characters without `,` or `=`. Never secrets.
                 * @example os_version=14.2.1,edition=pro
                 */
                "X-Ferry-Attributes"?: components["parameters"]["Attributes"];
                /**
                 * @description `true` when a person asked for this check ("Check for updates"): a ramp's percentage is skipped, never a pull, a pause, a hold, a pin or a targeting rule.
                 * @example true
                 */
                "X-Ferry-Manual"?: components["parameters"]["Manual"];
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The device's cohort (an organisation, tenant or licence id the app chooses), for clients that only fetch a URL.
                 * @example acme-corp
                 */
                cohort: components["schemas"]["CohortKey"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Platform name (`darwin` for Sparkle, `windows` for WinSparkle).
                 * @example darwin
                 */
                platform: string;
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The appcast. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example <?xml version="1.0" encoding="utf-8"?>
                     *     <rss version="2.0" xmlns:sparkle="http://www.andymatuschak.org/xml-namespaces/sparkle" xmlns:dc="http://purl.org/dc/elements/1.1/">
                     *       <channel>
                     *         <title>Harbor Notes</title>
                     *         <item>
                     *           <title>1.4.0</title>
                     *           <pubDate>Fri, 14 Mar 2025 10:15:00 GMT</pubDate>
                     *           <sparkle:version>1.4.0</sparkle:version>
                     *           <sparkle:shortVersionString>1.4.0</sparkle:shortVersionString>
                     *           <description><![CDATA[- Tags for notes]]></description>
                     *           <enclosure url="https://updates.acme.test/v1/apps/harbor-notes/versions/ver_4Lx7/artifacts/art_8q1w/download" length="85102930" type="application/octet-stream" sparkle:edSignature="7cLALFUHSwvEJWSkV8aMreoBe4fhRa4FncC5NoThKxwThL6FDR7hTiPJh1fo2uagnPogisnQsgFgq6mGkt2RBw=="/>
                     *         </item>
                     *       </channel>
                     *     </rss>
                     */
                    "application/rss+xml": string;
                };
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getRepositoryKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The armored public key. */
            200: {
                headers: {
                    /**
                     * @description `public, max-age=300`.
                     * @example public, max-age=300
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example -----BEGIN PGP PUBLIC KEY BLOCK-----
                     *
                     *     xjMEZ9Q0ABYJKwYBBAHaRw8BAQdAbmJvbmVfZXhhbXBsZV9rZXlfbm90X3Jl
                     *     YWzNKEhhcmJvciBOb3RlcyByZXBvc2l0b3J5IChGZXJyeSk=
                     *     -----END PGP PUBLIC KEY BLOCK-----
                     */
                    "application/pgp-keys": string;
                };
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAptRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description `InRelease` (clear-signed), `Release`, or `Release.gpg` (its detached signature).
                 * @example InRelease
                 */
                file: "InRelease" | "Release" | "Release.gpg";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Release text, clear-signed text or armored signature. */
            200: {
                headers: {
                    /**
                     * @description `public, max-age=60`: an index changes when a version is published, paused, pulled or reaches 100 %.
                     * @example public, max-age=60
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example Origin: Harbor Notes
                     *     Label: Harbor Notes
                     *     Suite: stable
                     *     Codename: stable
                     *     Date: Fri, 14 Mar 2025 10:15:00 UTC
                     *     Architectures: amd64 arm64
                     *     Components: main
                     *     Acquire-By-Hash: yes
                     *     SHA256:
                     *      3f0a1c7e0d2f6a84e0b5a41f1f5ce3c8ad1b5e20c8b3a4e0f07d0f4c1a2b3c4d              612 main/binary-amd64/Packages
                     */
                    "text/plain": string;
                    "application/pgp-signature": string;
                };
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAptPackages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description `binary-` and a Debian architecture the `Release` file lists.
                 * @example binary-amd64
                 */
                binaryArch: string;
                /**
                 * @description `Packages`, or compressed: `Packages.gz` (gzip) or `Packages.xz` (xz).
                 * @example Packages
                 */
                file: "Packages" | "Packages.gz" | "Packages.xz";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The index, plain, gzip- or xz-compressed. */
            200: {
                headers: {
                    /**
                     * @description `public, max-age=60`: an index changes when a version is published, paused, pulled or reaches 100 %.
                     * @example public, max-age=60
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example Package: harbor-notes
                     *     Version: 1.4.0
                     *     Architecture: amd64
                     *     Maintainer: Acme <ops@acme.test>
                     *     Filename: pool/art_9n2v/harbor-notes_1.4.0_amd64.deb
                     *     Size: 85102930
                     *     SHA256: 3f0a1c7e0d2f6a84e0b5a41f1f5ce3c8ad1b5e20c8b3a4e0f07d0f4c1a2b3c4d
                     *     Description: Notes that sync
                     */
                    "text/plain": string;
                    "application/gzip": string;
                    "application/x-xz": string;
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAptIndexByHash: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description `binary-` and a Debian architecture the `Release` file lists.
                 * @example binary-amd64
                 */
                binaryArch: string;
                /**
                 * @description The SHA-256 (64 lower-case hex digits) that a `Release` lists for one of the architecture's indexes.
                 * @example 3f0a1c7e0d2f6a84e0b5a41f1f5ce3c8ad1b5e20c8b3a4e0f07d0f4c1a2b3c4d
                 */
                hash: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The index file with that hash. */
            200: {
                headers: {
                    /**
                     * @description `public, max-age=31536000, immutable`: the bytes at a hash never change.
                     * @example public, max-age=31536000, immutable
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example Package: harbor-notes
                     *     Version: 1.4.0
                     *     Architecture: amd64
                     *     Maintainer: Acme <ops@acme.test>
                     *     Filename: pool/art_9n2v/harbor-notes_1.4.0_amd64.deb
                     *     Size: 85102930
                     *     SHA256: 3f0a1c7e0d2f6a84e0b5a41f1f5ce3c8ad1b5e20c8b3a4e0f07d0f4c1a2b3c4d
                     *     Description: Notes that sync
                     */
                    "text/plain": string;
                    "application/gzip": string;
                    "application/x-xz": string;
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAptPackageFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
                /**
                 * @description The artifact's file name, as `Filename` in `Packages` gives it.
                 * @example harbor-notes_1.4.0_amd64.deb
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["ArtifactCacheControl"];
                    ETag: components["headers"]["ArtifactETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description The requested byte range. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description With object storage in redirect mode, a presigned URL of the file. */
            302: {
                headers: {
                    /**
                     * @description The presigned URL.
                     * @example https://objects.acme.test/ferry/art_9n2v?X-Amz-Signature=0f1e
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The `If-None-Match` ETag matches. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            /** @description The range lies outside the file. */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getRpmMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description `repomd.xml`, its detached signature `repomd.xml.asc`, or one of the gzip-compressed metadata files it lists.
                 * @example repomd.xml
                 */
                file: "repomd.xml" | "repomd.xml.asc" | "primary.xml.gz" | "filelists.xml.gz" | "other.xml.gz";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata file. */
            200: {
                headers: {
                    /**
                     * @description `public, max-age=60`: an index changes when a version is published, paused, pulled or reaches 100 %.
                     * @example public, max-age=60
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example <?xml version="1.0" encoding="UTF-8"?>
                     *     <repomd xmlns="http://linux.duke.edu/metadata/repo" xmlns:rpm="http://linux.duke.edu/metadata/rpm">
                     *       <revision>1741947300</revision>
                     *     </repomd>
                     */
                    "application/xml": string;
                    "application/gzip": string;
                    "application/pgp-signature": string;
                };
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getRpmPackageFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
                /**
                 * @description The artifact's file name, as `location` in `primary.xml` gives it.
                 * @example harbor-notes-1.4.0-1.x86_64.rpm
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["ArtifactCacheControl"];
                    ETag: components["headers"]["ArtifactETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description The requested byte range. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description With object storage in redirect mode, a presigned URL of the file. */
            302: {
                headers: {
                    /**
                     * @description The presigned URL.
                     * @example https://objects.acme.test/ferry/art_9n2v?X-Amz-Signature=0f1e
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The `If-None-Match` ETag matches. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            /** @description The range lies outside the file. */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getTufMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description `N.root.json`, `timestamp.json`, `N.snapshot.json`, `N.targets.json`, the unversioned names for the newest, or `online-key.json`.
                 * @example 1.root.json
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata file (or the online key) as JSON. */
            200: {
                headers: {
                    /**
                     * @description `public, max-age=31536000, immutable` for a versioned file; `no-cache` for the newest and `timestamp.json`.
                     * @example no-cache
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "signed": {
                     *         "_type": "timestamp",
                     *         "spec_version": "1.0.31",
                     *         "version": 7,
                     *         "expires": "2025-03-15T10:15:00Z",
                     *         "meta": {
                     *           "snapshot.json": {
                     *             "version": 3,
                     *             "length": 512,
                     *             "hashes": {
                     *               "sha256": "3f0a1c7e0d2f6a84e0b5a41f1f5ce3c8ad1b5e20c8b3a4e0f07d0f4c1a2b3c4d"
                     *             }
                     *           }
                     *         }
                     *       },
                     *       "signatures": [
                     *         {
                     *           "keyid": "9d2c0e0f1b5a8f4e3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d",
                     *           "sig": "5e1f0c9a"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    publishTufMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description `root.json` or `targets.json`.
                 * @example targets.json
                 */
                file: "root.json" | "targets.json";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "signed": {
                 *         "_type": "targets",
                 *         "spec_version": "1.0.31",
                 *         "version": 2,
                 *         "expires": "2026-03-14T10:15:00Z",
                 *         "targets": {
                 *           "ver_2Qm8/artifacts/art_7h3j/download": {
                 *             "length": 85102930,
                 *             "hashes": {
                 *               "sha256": "3f0a1c7e0d2f6a84e0b5a41f1f5ce3c8ad1b5e20c8b3a4e0f07d0f4c1a2b3c4d"
                 *             },
                 *             "custom": {
                 *               "app": "harbor-notes",
                 *               "version": "1.4.0"
                 *             }
                 *           }
                 *         }
                 *       },
                 *       "signatures": [
                 *         {
                 *           "keyid": "4b1e7f0d2c9a8b3e6f5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f",
                 *           "sig": "9a8b7c6d"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["TufMetadataFile"];
            };
        };
        responses: {
            /** @description Stored; for targets, the new snapshot and timestamp are signed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "role": "targets",
                     *       "version": 2,
                     *       "targets": 1
                     *     }
                     */
                    "application/json": components["schemas"]["TufStored"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMsixUpdate: {
        parameters: {
            query: {
                /**
                 * @description The version the app runs (semver; `app.getVersion()`).
                 * @example 1.3.0
                 */
                version: components["schemas"]["Semver"];
            };
            header?: {
                /**
                 * @description A stable, anonymous id of the installation (for example a random UUID stored on first run).
                 *     Used to bucket the device for staged rollouts; never stored with personal data.
                 * @example 6f1c9a52-3b7e-4d0a-9c1e-2f5b8d7a4e10
                 */
                "X-Ferry-Device-Id"?: components["parameters"]["DeviceId"];
            };
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An update is available. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://updates.acme.test/v1/apps/harbor-notes/msix/files/ver_4Lx7/art_8q1w/HarborNotes-1.4.0-x64.msix",
                     *       "name": "1.4.0",
                     *       "notes": "- Tags for notes",
                     *       "pub_date": "2025-03-14T10:15:00Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uri
                         * @description The `.msix` or `.msixbundle` at a path ending in its file name; signed for private apps.
                         */
                        url: string;
                        /** @description The offered version. */
                        name: string;
                        /** @description The version's changelog. */
                        notes: string;
                        pub_date: components["schemas"]["Timestamp"];
                    };
                };
            };
            /** @description No update. The body is empty. */
            204: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMsixAppInstaller: {
        parameters: {
            query?: {
                /**
                 * @description `OnLaunch HoursBetweenUpdateChecks`: how many hours pass before a launch checks again (0: every launch).
                 * @example 8
                 */
                hoursBetweenUpdateChecks?: number;
                /**
                 * @description `OnLaunch ShowPrompt`: Windows tells the user about the update.
                 * @example true
                 */
                showPrompt?: boolean;
                /**
                 * @description `OnLaunch UpdateBlocksActivation`: the user must take the update before the app starts. Needs `showPrompt=true`.
                 * @example false
                 */
                updateBlocksActivation?: boolean;
                /**
                 * @description `AutomaticBackgroundTask`: Windows also checks every 8 hours without the app running.
                 * @example true
                 */
                automaticBackgroundTask?: boolean;
                /**
                 * @description `ForceUpdateFromAnyVersion`: Windows installs the named version even when it is lower than the installed one.
                 * @example false
                 */
                forceUpdateFromAnyVersion?: boolean;
            };
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description Channel name.
                 * @example stable
                 */
                channel: components["parameters"]["ChannelName"];
                /**
                 * @description Architecture name.
                 * @example x64
                 */
                arch: components["parameters"]["ArchName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The App Installer file. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["UpdateCacheControl"];
                    ETag: components["headers"]["UpdateETag"];
                    "Surrogate-Key": components["headers"]["SurrogateKey"];
                    "Cache-Tag": components["headers"]["CacheTag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example <?xml version="1.0" encoding="utf-8"?>
                     *     <AppInstaller xmlns="http://schemas.microsoft.com/appx/appinstaller/2018" Version="1.4.0.0" Uri="https://updates.acme.test/v1/apps/harbor-notes/msix/stable/x64/app.appinstaller?hoursBetweenUpdateChecks=8">
                     *       <MainPackage Name="Acme.HarborNotes" Publisher="CN=Acme Software, O=Acme Software, C=US" Version="1.4.0.0" ProcessorArchitecture="x64" Uri="https://updates.acme.test/v1/apps/harbor-notes/msix/files/ver_4Lx7/art_8q1w/HarborNotes-1.4.0-x64.msix"/>
                     *       <UpdateSettings>
                     *         <OnLaunch HoursBetweenUpdateChecks="8"/>
                     *       </UpdateSettings>
                     *     </AppInstaller>
                     */
                    "application/appinstaller": string;
                };
            };
            304: components["responses"]["UpdateNotModified"];
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMsixPackage: {
        parameters: {
            query?: {
                /**
                 * @description Signed link expiry, Unix time in seconds (private apps). Required together with `signature`.
                 * @example 1742032800
                 */
                expires?: number;
                /**
                 * @description The signature of the artifact's signed download link (private apps).
                 * @example 9f2c4e1d7a3b5c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60
                 */
                signature?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The app's slug.
                 * @example harbor-notes
                 */
                app: components["parameters"]["AppSlug"];
                /**
                 * @description The version's id (`id` of a Version, not its semver number).
                 * @example ver_2Qm8
                 */
                version: components["parameters"]["VersionId"];
                /**
                 * @description The artifact's id.
                 * @example art_7h3j
                 */
                artifact: components["parameters"]["ArtifactId"];
                /**
                 * @description The artifact's file name, ending in `.msix` or `.msixbundle`.
                 * @example HarborNotes-1.4.0-x64.msix
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description The requested range, or several ranges as `multipart/byteranges`. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "multipart/byteranges": string;
                };
            };
            /** @description The `If-None-Match` ETag matches. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getTelemetry: {
        parameters: {
            query: {
                /**
                 * @description First day (UTC), inclusive.
                 * @example 2025-03-01
                 */
                from: string;
                /**
                 * @description Last day (UTC), inclusive; at most 365 days after `from`.
                 * @example 2025-03-31
                 */
                to: string;
                /**
                 * @description Only this app (slug).
                 * @example harbor-notes
                 */
                app?: components["schemas"]["Slug"];
                /**
                 * @description Only checks from clients on this version.
                 * @example 1.3.0
                 */
                version?: components["schemas"]["Semver"];
                /**
                 * @description Only versions on this channel (name).
                 * @example stable
                 */
                channel?: components["parameters"]["ChannelFilter"];
                /**
                 * @description Only versions for this platform (name).
                 * @example windows
                 */
                platform?: components["parameters"]["PlatformFilter"];
                /**
                 * @description Only versions for this architecture (name).
                 * @example x64
                 */
                arch?: components["parameters"]["ArchFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The aggregates, ordered by day, app, version, channel, platform and architecture. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "from": "2025-03-01",
                     *       "to": "2025-03-31",
                     *       "items": [
                     *         {
                     *           "day": "2025-03-14",
                     *           "app": "harbor-notes",
                     *           "version": "1.3.0",
                     *           "channel": "stable",
                     *           "platform": "windows",
                     *           "arch": "x64",
                     *           "checks": 5120,
                     *           "devices": 1873
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["TelemetryReport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TelemetryDisabled"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
}
