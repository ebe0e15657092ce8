// Generated from openapi/openapi.yaml by scripts/gen-api.ts — do not edit
// The server's view of the contract: routes, permissions, invalidation, and ajv-ready schemas.
import type { OperationSpec } from '../operation-spec.ts'

export const COMPONENTS_ID = 'ferry:components'

/** `#/components/schemas` of the spec, registered with ajv under `COMPONENTS_ID`. */
export const componentSchemas: Record<string, unknown> = {
  "schemas": {
    "Id": {
      "type": "string",
      "pattern": "^[a-z]+_[0-9A-Za-z]+$"
    },
    "Slug": {
      "type": "string",
      "pattern": "^[a-z0-9][a-z0-9-]{1,62}$"
    },
    "Semver": {
      "type": "string",
      "pattern": "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$"
    },
    "CatalogName": {
      "type": "string",
      "pattern": "^[a-z0-9][a-z0-9._-]{0,31}$"
    },
    "Timestamp": {
      "type": "string",
      "format": "date-time"
    },
    "NextCursor": {
      "type": [
        "string",
        "null"
      ]
    },
    "Problem": {
      "type": "object",
      "required": [
        "type",
        "title",
        "status"
      ],
      "properties": {
        "type": {
          "type": "string",
          "format": "uri-reference",
          "default": "about:blank"
        },
        "title": {
          "type": "string"
        },
        "status": {
          "type": "integer",
          "minimum": 400,
          "maximum": 599
        },
        "detail": {
          "type": "string"
        },
        "instance": {
          "type": "string",
          "format": "uri-reference"
        },
        "errors": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/FieldError"
          }
        }
      }
    },
    "FieldError": {
      "type": "object",
      "required": [
        "message"
      ],
      "properties": {
        "pointer": {
          "type": "string"
        },
        "field": {
          "type": "string"
        },
        "message": {
          "type": "string"
        }
      }
    },
    "SignupRequest": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "teamName",
        "name",
        "email",
        "password"
      ],
      "properties": {
        "teamName": {
          "type": "string",
          "minLength": 1,
          "maxLength": 80
        },
        "name": {
          "type": "string",
          "minLength": 1,
          "maxLength": 80
        },
        "email": {
          "type": "string",
          "format": "email"
        },
        "password": {
          "type": "string",
          "format": "password",
          "minLength": 12,
          "maxLength": 256,
          "writeOnly": true
        }
      }
    },
    "LoginRequest": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "email",
        "password"
      ],
      "properties": {
        "email": {
          "type": "string",
          "format": "email"
        },
        "password": {
          "type": "string",
          "format": "password",
          "writeOnly": true
        }
      }
    },
    "Session": {
      "type": "object",
      "required": [
        "token",
        "tokenType",
        "expiresAt",
        "user",
        "team"
      ],
      "properties": {
        "token": {
          "type": "string"
        },
        "tokenType": {
          "type": "string",
          "enum": [
            "Bearer"
          ]
        },
        "expiresAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "user": {
          "$ref": "ferry:components#/schemas/User"
        },
        "team": {
          "$ref": "ferry:components#/schemas/Team"
        }
      }
    },
    "Role": {
      "type": "string",
      "enum": [
        "admin",
        "user"
      ]
    },
    "User": {
      "type": "object",
      "required": [
        "id",
        "email",
        "name",
        "role",
        "createdAt"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "email": {
          "type": "string",
          "format": "email"
        },
        "name": {
          "type": "string"
        },
        "role": {
          "$ref": "ferry:components#/schemas/Role"
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "Team": {
      "type": "object",
      "required": [
        "id",
        "name",
        "createdAt"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "name": {
          "type": "string"
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "PermissionGrant": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "enabled"
      ],
      "properties": {
        "enabled": {
          "type": "boolean"
        },
        "allowed": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      }
    },
    "AppPermissions": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "create": {
          "$ref": "ferry:components#/schemas/PermissionGrant"
        },
        "edit": {
          "$ref": "ferry:components#/schemas/PermissionGrant"
        },
        "delete": {
          "$ref": "ferry:components#/schemas/PermissionGrant"
        },
        "upload": {
          "$ref": "ferry:components#/schemas/PermissionGrant"
        },
        "download": {
          "$ref": "ferry:components#/schemas/PermissionGrant"
        }
      }
    },
    "CatalogPermissions": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "create": {
          "$ref": "ferry:components#/schemas/PermissionGrant"
        },
        "edit": {
          "$ref": "ferry:components#/schemas/PermissionGrant"
        },
        "delete": {
          "$ref": "ferry:components#/schemas/PermissionGrant"
        }
      }
    },
    "Permissions": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "apps": {
          "$ref": "ferry:components#/schemas/AppPermissions"
        },
        "channels": {
          "$ref": "ferry:components#/schemas/CatalogPermissions"
        },
        "platforms": {
          "$ref": "ferry:components#/schemas/CatalogPermissions"
        },
        "archs": {
          "$ref": "ferry:components#/schemas/CatalogPermissions"
        }
      }
    },
    "TeamUser": {
      "allOf": [
        {
          "$ref": "ferry:components#/schemas/User"
        },
        {
          "type": "object",
          "required": [
            "permissions"
          ],
          "properties": {
            "permissions": {
              "$ref": "ferry:components#/schemas/Permissions"
            }
          }
        }
      ]
    },
    "TeamUserCreate": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "email",
        "name",
        "password"
      ],
      "properties": {
        "email": {
          "type": "string",
          "format": "email"
        },
        "name": {
          "type": "string",
          "minLength": 1,
          "maxLength": 80
        },
        "password": {
          "type": "string",
          "format": "password",
          "minLength": 12,
          "maxLength": 256,
          "writeOnly": true
        },
        "permissions": {
          "$ref": "ferry:components#/schemas/Permissions"
        }
      }
    },
    "TeamUserUpdate": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "name": {
          "type": "string",
          "minLength": 1,
          "maxLength": 80
        },
        "password": {
          "type": "string",
          "format": "password",
          "minLength": 12,
          "maxLength": 256,
          "writeOnly": true
        },
        "permissions": {
          "$ref": "ferry:components#/schemas/Permissions"
        }
      }
    },
    "TeamUserList": {
      "type": "object",
      "required": [
        "items",
        "nextCursor"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/TeamUser"
          }
        },
        "nextCursor": {
          "$ref": "ferry:components#/schemas/NextCursor"
        }
      }
    },
    "ApiTokenCreate": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name"
      ],
      "properties": {
        "name": {
          "type": "string",
          "minLength": 1,
          "maxLength": 80
        },
        "permissions": {
          "$ref": "ferry:components#/schemas/Permissions"
        },
        "expiresAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "ApiToken": {
      "type": "object",
      "required": [
        "id",
        "name",
        "permissions",
        "createdBy",
        "createdAt",
        "expiresAt",
        "lastUsedAt"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "name": {
          "type": "string"
        },
        "permissions": {
          "$ref": "ferry:components#/schemas/Permissions"
        },
        "createdBy": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "expiresAt": {
          "type": [
            "string",
            "null"
          ],
          "format": "date-time"
        },
        "lastUsedAt": {
          "type": [
            "string",
            "null"
          ],
          "format": "date-time"
        }
      }
    },
    "ApiTokenCreated": {
      "allOf": [
        {
          "$ref": "ferry:components#/schemas/ApiToken"
        },
        {
          "type": "object",
          "required": [
            "token"
          ],
          "properties": {
            "token": {
              "type": "string",
              "pattern": "^ferry_[0-9A-Za-z]{32}$"
            }
          }
        }
      ]
    },
    "ApiTokenList": {
      "type": "object",
      "required": [
        "items",
        "nextCursor"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/ApiToken"
          }
        },
        "nextCursor": {
          "$ref": "ferry:components#/schemas/NextCursor"
        }
      }
    },
    "AdminPasswordUpdate": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "currentPassword",
        "newPassword"
      ],
      "properties": {
        "currentPassword": {
          "type": "string",
          "format": "password",
          "writeOnly": true
        },
        "newPassword": {
          "type": "string",
          "format": "password",
          "minLength": 12,
          "maxLength": 256,
          "writeOnly": true
        }
      }
    },
    "App": {
      "type": "object",
      "required": [
        "slug",
        "name",
        "description",
        "private",
        "createdAt",
        "updatedAt"
      ],
      "properties": {
        "slug": {
          "$ref": "ferry:components#/schemas/Slug"
        },
        "name": {
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "private": {
          "type": "boolean"
        },
        "tauriPublicKey": {
          "$ref": "ferry:components#/schemas/TauriPublicKey"
        },
        "sparklePublicKey": {
          "$ref": "ferry:components#/schemas/SparklePublicKey"
        },
        "tauriPublicKeys": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/TauriKeyEntry"
          }
        },
        "sparklePublicKeys": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/SparkleKeyEntry"
          }
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "updatedAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "AppCreate": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "slug",
        "name"
      ],
      "properties": {
        "slug": {
          "$ref": "ferry:components#/schemas/Slug"
        },
        "name": {
          "type": "string",
          "minLength": 1,
          "maxLength": 80
        },
        "description": {
          "type": "string",
          "maxLength": 500,
          "default": ""
        },
        "private": {
          "type": "boolean",
          "default": false
        }
      }
    },
    "AppUpdate": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "name": {
          "type": "string",
          "minLength": 1,
          "maxLength": 80
        },
        "description": {
          "type": "string",
          "maxLength": 500
        },
        "private": {
          "type": "boolean"
        },
        "tauriPublicKey": {
          "$ref": "ferry:components#/schemas/TauriPublicKey"
        },
        "sparklePublicKey": {
          "$ref": "ferry:components#/schemas/SparklePublicKey"
        },
        "tauriPublicKeys": {
          "type": "array",
          "maxItems": 8,
          "items": {
            "$ref": "ferry:components#/schemas/TauriKeyEntry"
          }
        },
        "sparklePublicKeys": {
          "type": "array",
          "maxItems": 8,
          "items": {
            "$ref": "ferry:components#/schemas/SparkleKeyEntry"
          }
        }
      }
    },
    "TauriPublicKey": {
      "type": [
        "string",
        "null"
      ],
      "pattern": "^[A-Za-z0-9+/=\\s]{40,400}$"
    },
    "SparklePublicKey": {
      "type": [
        "string",
        "null"
      ],
      "pattern": "^[A-Za-z0-9+/]{43}=$"
    },
    "AppList": {
      "type": "object",
      "required": [
        "items",
        "nextCursor"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/App"
          }
        },
        "nextCursor": {
          "$ref": "ferry:components#/schemas/NextCursor"
        }
      }
    },
    "PackageType": {
      "type": "string",
      "enum": [
        "exe",
        "msi",
        "nupkg",
        "dmg",
        "pkg",
        "zip",
        "tar.gz",
        "appimage",
        "deb",
        "rpm",
        "snap",
        "blockmap",
        "yml",
        "sig",
        "edsig",
        "delta",
        "msix",
        "msixbundle"
      ]
    },
    "Artifact": {
      "type": "object",
      "required": [
        "id",
        "fileName",
        "packageType",
        "size",
        "sha256",
        "sha512",
        "downloadUrl"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "fileName": {
          "type": "string"
        },
        "packageType": {
          "$ref": "ferry:components#/schemas/PackageType"
        },
        "size": {
          "type": "integer",
          "format": "int64",
          "minimum": 0
        },
        "sha256": {
          "type": "string",
          "pattern": "^[0-9a-f]{64}$"
        },
        "sha512": {
          "type": "string",
          "pattern": "^[0-9a-f]{128}$"
        },
        "downloadUrl": {
          "type": "string",
          "format": "uri"
        }
      }
    },
    "Version": {
      "type": "object",
      "required": [
        "id",
        "app",
        "version",
        "channel",
        "platform",
        "arch",
        "changelog",
        "published",
        "critical",
        "intermediate",
        "rolloutPercentage",
        "rollout",
        "createdAt",
        "publishedAt",
        "artifacts"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "app": {
          "$ref": "ferry:components#/schemas/Slug"
        },
        "version": {
          "$ref": "ferry:components#/schemas/Semver"
        },
        "channel": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "platform": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "arch": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "changelog": {
          "type": "string"
        },
        "published": {
          "type": "boolean"
        },
        "critical": {
          "type": "boolean"
        },
        "intermediate": {
          "type": "boolean"
        },
        "rolloutPercentage": {
          "type": "integer",
          "minimum": 0,
          "maximum": 100
        },
        "rollout": {
          "$ref": "ferry:components#/schemas/Rollout"
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "publishedAt": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/Timestamp"
            },
            {
              "type": "null"
            }
          ]
        },
        "minimumSystemVersion": {
          "$ref": "ferry:components#/schemas/MinimumSystemVersion"
        },
        "signer": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/SignerIdentity"
            },
            {
              "type": "null"
            }
          ]
        },
        "signerChange": {
          "$ref": "ferry:components#/schemas/SignerChange"
        },
        "artifacts": {
          "type": "array",
          "minItems": 1,
          "items": {
            "$ref": "ferry:components#/schemas/Artifact"
          }
        }
      }
    },
    "VersionUpload": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "version",
        "channel",
        "platform",
        "arch",
        "files"
      ],
      "properties": {
        "version": {
          "$ref": "ferry:components#/schemas/Semver"
        },
        "channel": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "platform": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "arch": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "changelog": {
          "type": "string",
          "default": ""
        },
        "published": {
          "type": "boolean",
          "default": false
        },
        "critical": {
          "type": "boolean",
          "default": false
        },
        "intermediate": {
          "type": "boolean",
          "default": false
        },
        "rolloutPercentage": {
          "type": "integer",
          "minimum": 0,
          "maximum": 100,
          "default": 100
        },
        "minimumSystemVersion": {
          "$ref": "ferry:components#/schemas/MinimumSystemVersion"
        },
        "signerChange": {
          "type": "boolean",
          "default": false
        },
        "signerChangeNote": {
          "type": "string",
          "maxLength": 1000
        },
        "trustsKeys": {
          "type": "string",
          "maxLength": 4000
        },
        "files": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "format": "binary"
          }
        }
      }
    },
    "VersionUpdate": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "changelog": {
          "type": "string"
        },
        "published": {
          "type": "boolean"
        },
        "critical": {
          "type": "boolean"
        },
        "intermediate": {
          "type": "boolean"
        },
        "rolloutPercentage": {
          "type": "integer",
          "minimum": 0,
          "maximum": 100
        },
        "ramp": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/RampRequest"
            },
            {
              "type": "null"
            }
          ]
        },
        "healthPolicy": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/HealthPolicy"
            },
            {
              "type": "null"
            }
          ]
        },
        "minimumSystemVersion": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/MinimumSystemVersion"
            },
            {
              "type": "null"
            }
          ]
        }
      }
    },
    "MinimumSystemVersion": {
      "type": "string",
      "pattern": "^\\d+(\\.\\d+){0,3}$"
    },
    "VersionList": {
      "type": "object",
      "required": [
        "items",
        "nextCursor"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/Version"
          }
        },
        "nextCursor": {
          "$ref": "ferry:components#/schemas/NextCursor"
        }
      }
    },
    "RolloutStep": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "percentage",
        "afterMinutes"
      ],
      "properties": {
        "percentage": {
          "type": "integer",
          "minimum": 0,
          "maximum": 100
        },
        "afterMinutes": {
          "type": "integer",
          "minimum": 0,
          "maximum": 525600
        }
      }
    },
    "RampRequest": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "steps"
      ],
      "properties": {
        "steps": {
          "type": "array",
          "minItems": 1,
          "maxItems": 20,
          "items": {
            "$ref": "ferry:components#/schemas/RolloutStep"
          }
        },
        "gate": {
          "$ref": "ferry:components#/schemas/RampGate"
        }
      }
    },
    "HealthPolicy": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "maxFailureRatio",
        "minReports"
      ],
      "properties": {
        "maxFailureRatio": {
          "type": "number",
          "minimum": 0,
          "maximum": 1
        },
        "minReports": {
          "type": "integer",
          "minimum": 1,
          "maximum": 1000000
        },
        "minAddresses": {
          "type": "integer",
          "minimum": 1,
          "maximum": 10000
        },
        "maxReportsPerAddress": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100
        }
      }
    },
    "VersionAdoption": {
      "type": "object",
      "required": [
        "version",
        "from",
        "to",
        "days"
      ],
      "properties": {
        "version": {
          "$ref": "ferry:components#/schemas/Semver"
        },
        "from": {
          "type": "string",
          "format": "date"
        },
        "to": {
          "type": "string",
          "format": "date"
        },
        "days": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/AdoptionDay"
          }
        }
      }
    },
    "AdoptionDay": {
      "type": "object",
      "required": [
        "day",
        "offered",
        "downloads",
        "installed",
        "failed",
        "running"
      ],
      "properties": {
        "day": {
          "type": "string",
          "format": "date"
        },
        "offered": {
          "type": "integer",
          "minimum": 0
        },
        "downloads": {
          "type": "integer",
          "minimum": 0
        },
        "installed": {
          "type": "integer",
          "minimum": 0
        },
        "failed": {
          "type": "integer",
          "minimum": 0
        },
        "running": {
          "type": "integer",
          "minimum": 0
        }
      }
    },
    "RampGate": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "minInstalls": {
          "type": "integer",
          "minimum": 1,
          "maximum": 1000000
        },
        "maxFailureRatio": {
          "type": "number",
          "minimum": 0,
          "maximum": 1
        },
        "deadlineMinutes": {
          "type": "integer",
          "minimum": 1,
          "maximum": 525600
        }
      }
    },
    "RampGateState": {
      "type": "object",
      "required": [
        "minInstalls",
        "maxFailureRatio",
        "deadlineMinutes",
        "met",
        "installs",
        "holding"
      ],
      "properties": {
        "minInstalls": {
          "type": "integer"
        },
        "maxFailureRatio": {
          "type": "number"
        },
        "deadlineMinutes": {
          "type": "integer"
        },
        "met": {
          "type": "boolean"
        },
        "installs": {
          "type": "integer",
          "minimum": 0
        },
        "holding": {
          "oneOf": [
            {
              "type": "object",
              "required": [
                "step",
                "since",
                "deadline",
                "expired",
                "reason"
              ],
              "properties": {
                "step": {
                  "type": "integer",
                  "minimum": 0
                },
                "since": {
                  "$ref": "ferry:components#/schemas/Timestamp"
                },
                "deadline": {
                  "$ref": "ferry:components#/schemas/Timestamp"
                },
                "expired": {
                  "type": "boolean"
                },
                "reason": {
                  "type": "string"
                }
              }
            },
            {
              "type": "null"
            }
          ]
        }
      }
    },
    "RampState": {
      "type": "object",
      "required": [
        "steps",
        "startedAt",
        "currentStep",
        "nextStepAt"
      ],
      "properties": {
        "steps": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/RolloutStep"
          }
        },
        "startedAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "currentStep": {
          "oneOf": [
            {
              "type": "integer",
              "minimum": 0
            },
            {
              "type": "null"
            }
          ]
        },
        "nextStepAt": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/Timestamp"
            },
            {
              "type": "null"
            }
          ]
        },
        "gate": {
          "$ref": "ferry:components#/schemas/RampGateState"
        }
      }
    },
    "RolloutHold": {
      "type": "object",
      "required": [
        "at",
        "reason",
        "automatic"
      ],
      "properties": {
        "at": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "reason": {
          "type": "string"
        },
        "automatic": {
          "type": "boolean"
        }
      }
    },
    "Rollout": {
      "type": "object",
      "required": [
        "ramp",
        "paused",
        "pulled",
        "health"
      ],
      "properties": {
        "ramp": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/RampState"
            },
            {
              "type": "null"
            }
          ]
        },
        "paused": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/RolloutHold"
            },
            {
              "type": "null"
            }
          ]
        },
        "pulled": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/RolloutHold"
            },
            {
              "type": "null"
            }
          ]
        },
        "health": {
          "type": "object",
          "required": [
            "reports",
            "failed",
            "failedAddresses",
            "policy",
            "defaultPolicy"
          ],
          "properties": {
            "reports": {
              "type": "integer",
              "minimum": 0
            },
            "failed": {
              "type": "integer",
              "minimum": 0
            },
            "failedAddresses": {
              "type": "integer",
              "minimum": 0
            },
            "policy": {
              "$ref": "ferry:components#/schemas/HealthPolicy"
            },
            "defaultPolicy": {
              "type": "boolean"
            }
          }
        }
      }
    },
    "RolloutAction": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "reason": {
          "type": "string",
          "maxLength": 500
        }
      }
    },
    "HealthReport": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "deviceId",
        "version",
        "channel",
        "platform",
        "arch",
        "outcome"
      ],
      "properties": {
        "deviceId": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        },
        "version": {
          "$ref": "ferry:components#/schemas/Semver"
        },
        "channel": {
          "type": "string",
          "maxLength": 64
        },
        "platform": {
          "type": "string",
          "maxLength": 64
        },
        "arch": {
          "type": "string",
          "maxLength": 64
        },
        "outcome": {
          "type": "string",
          "enum": [
            "installed",
            "failed"
          ]
        },
        "reason": {
          "type": "string",
          "maxLength": 500
        },
        "fromVersion": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      }
    },
    "HealthReportReceipt": {
      "type": "object",
      "required": [
        "counted",
        "paused"
      ],
      "properties": {
        "counted": {
          "type": "boolean"
        },
        "paused": {
          "type": "boolean"
        }
      }
    },
    "VersionExplanation": {
      "type": "object",
      "required": [
        "id",
        "version",
        "verdict",
        "rule",
        "reason",
        "bucket",
        "rolloutPercentage"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "version": {
          "type": "string"
        },
        "verdict": {
          "type": "string",
          "enum": [
            "offered",
            "skipped",
            "excluded"
          ]
        },
        "rule": {
          "type": "string",
          "enum": [
            "offered",
            "channel",
            "platform",
            "arch",
            "draft",
            "pulled",
            "not-newer",
            "gate",
            "paused",
            "bucket",
            "zero-percent",
            "unreadable",
            "no-installable-file",
            "lower-offer",
            "rollback",
            "hold",
            "pin",
            "targeting",
            "manual"
          ]
        },
        "reason": {
          "type": "string"
        },
        "bucket": {
          "oneOf": [
            {
              "type": "integer",
              "minimum": 0,
              "maximum": 99
            },
            {
              "type": "null"
            }
          ]
        },
        "rolloutPercentage": {
          "type": "integer",
          "minimum": 0,
          "maximum": 100
        }
      }
    },
    "UpdateExplanation": {
      "type": "object",
      "required": [
        "app",
        "channel",
        "platform",
        "arch",
        "currentVersion",
        "format",
        "rolloutMode",
        "inCatalog",
        "offered",
        "critical",
        "downgrade",
        "versions"
      ],
      "properties": {
        "app": {
          "$ref": "ferry:components#/schemas/Slug"
        },
        "channel": {
          "type": "string"
        },
        "platform": {
          "type": "string"
        },
        "arch": {
          "type": "string"
        },
        "currentVersion": {
          "$ref": "ferry:components#/schemas/Semver"
        },
        "format": {
          "$ref": "ferry:components#/schemas/UpdaterFormat"
        },
        "rolloutMode": {
          "type": "string",
          "enum": [
            "server",
            "client"
          ]
        },
        "inCatalog": {
          "type": "boolean"
        },
        "offered": {
          "oneOf": [
            {
              "type": "string"
            },
            {
              "type": "null"
            }
          ]
        },
        "critical": {
          "type": "boolean"
        },
        "downgrade": {
          "type": "boolean"
        },
        "signerChange": {
          "type": "string"
        },
        "keyHold": {
          "$ref": "ferry:components#/schemas/UpdateKeyHold"
        },
        "versions": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/VersionExplanation"
          }
        }
      }
    },
    "UpdaterFormat": {
      "type": "string",
      "enum": [
        "ferry",
        "squirrel-windows",
        "electron-builtin",
        "electron-updater",
        "tauri",
        "velopack",
        "sparkle",
        "msix"
      ]
    },
    "Channel": {
      "type": "object",
      "required": [
        "id",
        "name",
        "description",
        "createdAt"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "name": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "description": {
          "type": "string"
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "ChannelCreate": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name"
      ],
      "properties": {
        "name": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "description": {
          "type": "string",
          "maxLength": 200,
          "default": ""
        }
      }
    },
    "ChannelUpdate": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "name": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "description": {
          "type": "string",
          "maxLength": 200
        }
      }
    },
    "ChannelList": {
      "type": "object",
      "required": [
        "items",
        "nextCursor"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/Channel"
          }
        },
        "nextCursor": {
          "$ref": "ferry:components#/schemas/NextCursor"
        }
      }
    },
    "Platform": {
      "type": "object",
      "required": [
        "id",
        "name",
        "updater",
        "createdAt"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "name": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "updater": {
          "$ref": "ferry:components#/schemas/UpdaterFormat"
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "PlatformCreate": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name"
      ],
      "properties": {
        "name": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "updater": {
          "allOf": [
            {
              "$ref": "ferry:components#/schemas/UpdaterFormat"
            }
          ],
          "default": "ferry"
        }
      }
    },
    "PlatformUpdate": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "name": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "updater": {
          "$ref": "ferry:components#/schemas/UpdaterFormat"
        }
      }
    },
    "PlatformList": {
      "type": "object",
      "required": [
        "items",
        "nextCursor"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/Platform"
          }
        },
        "nextCursor": {
          "$ref": "ferry:components#/schemas/NextCursor"
        }
      }
    },
    "Arch": {
      "type": "object",
      "required": [
        "id",
        "name",
        "createdAt"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "name": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "ArchCreate": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name"
      ],
      "properties": {
        "name": {
          "$ref": "ferry:components#/schemas/CatalogName"
        }
      }
    },
    "ArchUpdate": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name"
      ],
      "properties": {
        "name": {
          "$ref": "ferry:components#/schemas/CatalogName"
        }
      }
    },
    "ArchList": {
      "type": "object",
      "required": [
        "items",
        "nextCursor"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/Arch"
          }
        },
        "nextCursor": {
          "$ref": "ferry:components#/schemas/NextCursor"
        }
      }
    },
    "WebhookEventType": {
      "type": "string",
      "enum": [
        "version.uploaded",
        "version.published",
        "version.unpublished",
        "version.ramp_step",
        "version.paused",
        "version.resumed",
        "version.pulled",
        "token.created",
        "token.revoked",
        "version.ramp_holding",
        "rule.created",
        "rule.deleted"
      ]
    },
    "WebhookEventSelector": {
      "type": "string",
      "enum": [
        "*",
        "version.uploaded",
        "version.published",
        "version.unpublished",
        "version.ramp_step",
        "version.paused",
        "version.resumed",
        "version.pulled",
        "token.created",
        "token.revoked",
        "version.ramp_holding",
        "rule.created",
        "rule.deleted"
      ]
    },
    "Webhook": {
      "type": "object",
      "required": [
        "id",
        "url",
        "description",
        "events",
        "apps",
        "enabled",
        "disabledReason",
        "createdAt",
        "updatedAt"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "url": {
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "events": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/WebhookEventSelector"
          }
        },
        "apps": {
          "type": [
            "array",
            "null"
          ],
          "items": {
            "$ref": "ferry:components#/schemas/Slug"
          }
        },
        "enabled": {
          "type": "boolean"
        },
        "disabledReason": {
          "type": [
            "string",
            "null"
          ]
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "updatedAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "WebhookCreated": {
      "allOf": [
        {
          "$ref": "ferry:components#/schemas/Webhook"
        },
        {
          "type": "object",
          "required": [
            "secret"
          ],
          "properties": {
            "secret": {
              "type": "string",
              "pattern": "^whsec_[A-Za-z0-9+/=]+$"
            }
          }
        }
      ]
    },
    "WebhookCreate": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "url",
        "events"
      ],
      "properties": {
        "url": {
          "type": "string",
          "minLength": 1,
          "maxLength": 2000
        },
        "description": {
          "type": "string",
          "maxLength": 200
        },
        "events": {
          "type": "array",
          "minItems": 1,
          "maxItems": 12,
          "uniqueItems": true,
          "items": {
            "$ref": "ferry:components#/schemas/WebhookEventSelector"
          }
        },
        "apps": {
          "type": [
            "array",
            "null"
          ],
          "minItems": 1,
          "maxItems": 100,
          "uniqueItems": true,
          "items": {
            "$ref": "ferry:components#/schemas/Slug"
          }
        }
      }
    },
    "WebhookUpdate": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "url": {
          "type": "string",
          "minLength": 1,
          "maxLength": 2000
        },
        "description": {
          "type": "string",
          "maxLength": 200
        },
        "events": {
          "type": "array",
          "minItems": 1,
          "maxItems": 12,
          "uniqueItems": true,
          "items": {
            "$ref": "ferry:components#/schemas/WebhookEventSelector"
          }
        },
        "apps": {
          "type": [
            "array",
            "null"
          ],
          "minItems": 1,
          "maxItems": 100,
          "uniqueItems": true,
          "items": {
            "$ref": "ferry:components#/schemas/Slug"
          }
        },
        "enabled": {
          "type": "boolean"
        }
      }
    },
    "WebhookList": {
      "type": "object",
      "required": [
        "items"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/Webhook"
          }
        }
      }
    },
    "WebhookDelivery": {
      "type": "object",
      "required": [
        "id",
        "eventId",
        "event",
        "status",
        "attempts",
        "responseStatus",
        "error",
        "lastAttemptAt",
        "nextAttemptAt",
        "createdAt"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "eventId": {
          "type": "string"
        },
        "event": {
          "type": "string"
        },
        "status": {
          "type": "string",
          "enum": [
            "pending",
            "succeeded",
            "failed"
          ]
        },
        "attempts": {
          "type": "integer",
          "minimum": 0
        },
        "responseStatus": {
          "type": [
            "integer",
            "null"
          ]
        },
        "error": {
          "type": [
            "string",
            "null"
          ]
        },
        "lastAttemptAt": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/Timestamp"
            },
            {
              "type": "null"
            }
          ]
        },
        "nextAttemptAt": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/Timestamp"
            },
            {
              "type": "null"
            }
          ]
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "WebhookDeliveryList": {
      "type": "object",
      "required": [
        "items",
        "nextCursor"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/WebhookDelivery"
          }
        },
        "nextCursor": {
          "$ref": "ferry:components#/schemas/NextCursor"
        }
      }
    },
    "WebhookActor": {
      "type": "object",
      "required": [
        "id",
        "name"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "name": {
          "type": "string"
        },
        "tokenId": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    },
    "WebhookVersion": {
      "type": "object",
      "required": [
        "id",
        "app",
        "version",
        "channel",
        "platform",
        "arch",
        "published",
        "paused",
        "pulled"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "app": {
          "$ref": "ferry:components#/schemas/Slug"
        },
        "version": {
          "type": "string"
        },
        "channel": {
          "type": "string"
        },
        "platform": {
          "type": "string"
        },
        "arch": {
          "type": "string"
        },
        "published": {
          "type": "boolean"
        },
        "paused": {
          "oneOf": [
            {
              "type": "object",
              "required": [
                "at",
                "reason",
                "automatic"
              ],
              "properties": {
                "at": {
                  "$ref": "ferry:components#/schemas/Timestamp"
                },
                "reason": {
                  "type": "string"
                },
                "automatic": {
                  "type": "boolean"
                }
              }
            },
            {
              "type": "null"
            }
          ]
        },
        "pulled": {
          "oneOf": [
            {
              "type": "object",
              "required": [
                "at",
                "reason"
              ],
              "properties": {
                "at": {
                  "$ref": "ferry:components#/schemas/Timestamp"
                },
                "reason": {
                  "type": "string"
                }
              }
            },
            {
              "type": "null"
            }
          ]
        }
      }
    },
    "WebhookVersionEvent": {
      "type": "object",
      "required": [
        "type",
        "timestamp",
        "data"
      ],
      "properties": {
        "type": {
          "type": "string",
          "enum": [
            "version.uploaded",
            "version.published",
            "version.unpublished",
            "version.paused",
            "version.resumed",
            "version.pulled"
          ]
        },
        "timestamp": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "data": {
          "type": "object",
          "required": [
            "app",
            "version",
            "actor"
          ],
          "properties": {
            "app": {
              "$ref": "ferry:components#/schemas/Slug"
            },
            "version": {
              "$ref": "ferry:components#/schemas/WebhookVersion"
            },
            "actor": {
              "oneOf": [
                {
                  "$ref": "ferry:components#/schemas/WebhookActor"
                },
                {
                  "type": "null"
                }
              ]
            }
          }
        }
      }
    },
    "WebhookRampStepEvent": {
      "type": "object",
      "required": [
        "type",
        "timestamp",
        "data"
      ],
      "properties": {
        "type": {
          "type": "string",
          "enum": [
            "version.ramp_step"
          ]
        },
        "timestamp": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "data": {
          "type": "object",
          "required": [
            "app",
            "version",
            "step",
            "percentage"
          ],
          "properties": {
            "app": {
              "$ref": "ferry:components#/schemas/Slug"
            },
            "version": {
              "$ref": "ferry:components#/schemas/WebhookVersion"
            },
            "step": {
              "type": "integer",
              "minimum": 0
            },
            "percentage": {
              "type": "number"
            },
            "actor": {
              "type": "null"
            }
          }
        }
      }
    },
    "WebhookRampHoldingEvent": {
      "type": "object",
      "required": [
        "type",
        "timestamp",
        "data"
      ],
      "properties": {
        "type": {
          "type": "string",
          "enum": [
            "version.ramp_holding"
          ]
        },
        "timestamp": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "data": {
          "type": "object",
          "required": [
            "app",
            "version",
            "step",
            "percentage",
            "holding",
            "evidence",
            "actor"
          ],
          "properties": {
            "app": {
              "$ref": "ferry:components#/schemas/Slug"
            },
            "version": {
              "$ref": "ferry:components#/schemas/WebhookVersion"
            },
            "step": {
              "type": "integer",
              "minimum": 0
            },
            "percentage": {
              "type": "number"
            },
            "holding": {
              "type": "object",
              "required": [
                "step",
                "since",
                "deadline"
              ],
              "properties": {
                "step": {
                  "type": "integer",
                  "minimum": 0
                },
                "since": {
                  "$ref": "ferry:components#/schemas/Timestamp"
                },
                "deadline": {
                  "$ref": "ferry:components#/schemas/Timestamp"
                }
              }
            },
            "evidence": {
              "type": "object",
              "required": [
                "installs",
                "minInstalls",
                "reports",
                "failed",
                "failureRatio",
                "maxFailureRatio",
                "progress"
              ],
              "properties": {
                "installs": {
                  "type": "integer",
                  "minimum": 0
                },
                "minInstalls": {
                  "type": "integer"
                },
                "reports": {
                  "type": "integer",
                  "minimum": 0
                },
                "failed": {
                  "type": "integer",
                  "minimum": 0
                },
                "failureRatio": {
                  "type": "number"
                },
                "maxFailureRatio": {
                  "type": "number"
                },
                "progress": {
                  "type": "string"
                }
              }
            },
            "actor": {
              "type": "null"
            }
          }
        }
      }
    },
    "CohortKey": {
      "type": "string",
      "pattern": "^[A-Za-z0-9._:-]{1,64}$"
    },
    "RuleCondition": {
      "type": "object",
      "required": [
        "attribute"
      ],
      "minProperties": 2,
      "maxProperties": 2,
      "additionalProperties": false,
      "properties": {
        "attribute": {
          "type": "string",
          "pattern": "^[a-z][a-z0-9_]{0,31}$"
        },
        "equals": {
          "type": "string",
          "maxLength": 64
        },
        "oneOf": {
          "type": "array",
          "minItems": 1,
          "maxItems": 50,
          "items": {
            "type": "string",
            "maxLength": 64
          }
        },
        "range": {
          "type": "string",
          "maxLength": 64
        }
      }
    },
    "RuleCreate": {
      "type": "object",
      "required": [
        "kind"
      ],
      "additionalProperties": false,
      "properties": {
        "kind": {
          "type": "string",
          "enum": [
            "hold",
            "pin",
            "target"
          ]
        },
        "cohort": {
          "$ref": "ferry:components#/schemas/CohortKey"
        },
        "range": {
          "type": "string",
          "minLength": 1,
          "maxLength": 64
        },
        "version": {
          "$ref": "ferry:components#/schemas/Semver"
        },
        "cohorts": {
          "type": "array",
          "minItems": 1,
          "maxItems": 100,
          "items": {
            "$ref": "ferry:components#/schemas/CohortKey"
          }
        },
        "devices": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1000,
          "items": {
            "type": "string",
            "minLength": 8,
            "maxLength": 128
          }
        },
        "deny": {
          "type": "array",
          "minItems": 1,
          "maxItems": 1000,
          "items": {
            "type": "string",
            "minLength": 8,
            "maxLength": 128
          }
        },
        "conditions": {
          "type": "array",
          "minItems": 1,
          "maxItems": 8,
          "items": {
            "$ref": "ferry:components#/schemas/RuleCondition"
          }
        },
        "reason": {
          "type": "string",
          "minLength": 1,
          "maxLength": 500
        },
        "expiresAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "Rule": {
      "type": "object",
      "required": [
        "id",
        "kind",
        "cohort",
        "range",
        "version",
        "cohorts",
        "devices",
        "deny",
        "conditions",
        "reason",
        "expiresAt",
        "createdAt",
        "createdBy"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "kind": {
          "type": "string",
          "enum": [
            "hold",
            "pin",
            "target"
          ]
        },
        "cohort": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/CohortKey"
            },
            {
              "type": "null"
            }
          ]
        },
        "range": {
          "type": [
            "string",
            "null"
          ]
        },
        "version": {
          "type": [
            "string",
            "null"
          ]
        },
        "cohorts": {
          "type": [
            "array",
            "null"
          ],
          "items": {
            "$ref": "ferry:components#/schemas/CohortKey"
          }
        },
        "devices": {
          "type": [
            "array",
            "null"
          ],
          "items": {
            "type": "string"
          }
        },
        "deny": {
          "type": [
            "array",
            "null"
          ],
          "items": {
            "type": "string"
          }
        },
        "conditions": {
          "type": [
            "array",
            "null"
          ],
          "items": {
            "$ref": "ferry:components#/schemas/RuleCondition"
          }
        },
        "reason": {
          "type": [
            "string",
            "null"
          ]
        },
        "expiresAt": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/Timestamp"
            },
            {
              "type": "null"
            }
          ]
        },
        "createdAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "createdBy": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    },
    "RuleList": {
      "type": "object",
      "required": [
        "items"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/Rule"
          }
        }
      }
    },
    "WebhookRuleEvent": {
      "type": "object",
      "required": [
        "type",
        "timestamp",
        "data"
      ],
      "properties": {
        "type": {
          "type": "string",
          "enum": [
            "rule.created",
            "rule.deleted"
          ]
        },
        "timestamp": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "data": {
          "type": "object",
          "required": [
            "app",
            "rule",
            "actor"
          ],
          "properties": {
            "app": {
              "$ref": "ferry:components#/schemas/Slug"
            },
            "rule": {
              "$ref": "ferry:components#/schemas/Rule"
            },
            "actor": {
              "$ref": "ferry:components#/schemas/WebhookActor"
            }
          }
        }
      }
    },
    "WebhookTokenEvent": {
      "type": "object",
      "required": [
        "type",
        "timestamp",
        "data"
      ],
      "properties": {
        "type": {
          "type": "string",
          "enum": [
            "token.created",
            "token.revoked"
          ]
        },
        "timestamp": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "data": {
          "type": "object",
          "required": [
            "token",
            "actor"
          ],
          "properties": {
            "token": {
              "type": "object",
              "required": [
                "id",
                "name",
                "createdBy"
              ],
              "properties": {
                "id": {
                  "$ref": "ferry:components#/schemas/Id"
                },
                "name": {
                  "type": "string"
                },
                "createdBy": {
                  "$ref": "ferry:components#/schemas/Id"
                }
              }
            },
            "actor": {
              "$ref": "ferry:components#/schemas/WebhookActor"
            }
          }
        }
      }
    },
    "WebhookTestEvent": {
      "type": "object",
      "required": [
        "type",
        "timestamp",
        "data"
      ],
      "properties": {
        "type": {
          "type": "string",
          "enum": [
            "webhook.test"
          ]
        },
        "timestamp": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "data": {
          "type": "object",
          "required": [
            "subscription"
          ],
          "properties": {
            "subscription": {
              "$ref": "ferry:components#/schemas/Id"
            }
          }
        }
      }
    },
    "HealthCheck": {
      "type": "object",
      "required": [
        "status"
      ],
      "properties": {
        "status": {
          "type": "string",
          "enum": [
            "ok",
            "failing"
          ]
        },
        "latencyMs": {
          "type": "integer",
          "minimum": 0
        }
      }
    },
    "JsonRpcMessage": {
      "type": "object",
      "required": [
        "jsonrpc"
      ],
      "properties": {
        "jsonrpc": {
          "type": "string",
          "enum": [
            "2.0"
          ]
        },
        "id": {
          "oneOf": [
            {
              "type": "string"
            },
            {
              "type": "integer"
            },
            {
              "type": "null"
            }
          ]
        },
        "method": {
          "type": "string"
        },
        "params": {
          "type": "object"
        },
        "result": {
          "type": "object"
        },
        "error": {
          "type": "object"
        }
      },
      "additionalProperties": false
    },
    "Health": {
      "type": "object",
      "required": [
        "status",
        "version",
        "uptimeSeconds",
        "checks"
      ],
      "properties": {
        "status": {
          "type": "string",
          "enum": [
            "ok",
            "degraded"
          ]
        },
        "version": {
          "type": "string"
        },
        "uptimeSeconds": {
          "type": "integer",
          "minimum": 0
        },
        "checks": {
          "type": "object",
          "required": [
            "database",
            "storage"
          ],
          "properties": {
            "database": {
              "$ref": "ferry:components#/schemas/HealthCheck"
            },
            "storage": {
              "$ref": "ferry:components#/schemas/HealthCheck"
            }
          }
        }
      }
    },
    "AuditActor": {
      "type": "object",
      "required": [
        "type",
        "id",
        "name",
        "email",
        "createdBy"
      ],
      "properties": {
        "type": {
          "type": "string",
          "enum": [
            "user",
            "token",
            "system"
          ]
        },
        "id": {
          "type": "string"
        },
        "name": {
          "type": "string"
        },
        "email": {
          "type": [
            "string",
            "null"
          ]
        },
        "createdBy": {
          "type": [
            "object",
            "null"
          ],
          "required": [
            "id",
            "email"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "email": {
              "type": "string"
            }
          }
        }
      }
    },
    "AuditChange": {
      "type": "object",
      "properties": {
        "from": {},
        "to": {}
      }
    },
    "AuditEntry": {
      "type": "object",
      "required": [
        "id",
        "at",
        "actor",
        "operationId",
        "action",
        "target",
        "changes",
        "address"
      ],
      "properties": {
        "id": {
          "$ref": "ferry:components#/schemas/Id"
        },
        "at": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "actor": {
          "$ref": "ferry:components#/schemas/AuditActor"
        },
        "operationId": {
          "type": [
            "string",
            "null"
          ]
        },
        "action": {
          "type": "string"
        },
        "target": {
          "type": "object",
          "required": [
            "type",
            "id",
            "app"
          ],
          "properties": {
            "type": {
              "type": "string"
            },
            "id": {
              "type": [
                "string",
                "null"
              ]
            },
            "app": {
              "type": [
                "string",
                "null"
              ]
            }
          }
        },
        "changes": {
          "type": "object",
          "additionalProperties": {
            "$ref": "ferry:components#/schemas/AuditChange"
          }
        },
        "address": {
          "type": [
            "string",
            "null"
          ]
        }
      }
    },
    "AuditEntryList": {
      "type": "object",
      "required": [
        "items",
        "nextCursor"
      ],
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/AuditEntry"
          }
        },
        "nextCursor": {
          "$ref": "ferry:components#/schemas/NextCursor"
        }
      }
    },
    "WhoAmI": {
      "type": "object",
      "required": [
        "user",
        "team",
        "permissions"
      ],
      "properties": {
        "user": {
          "$ref": "ferry:components#/schemas/User"
        },
        "team": {
          "$ref": "ferry:components#/schemas/Team"
        },
        "permissions": {
          "$ref": "ferry:components#/schemas/Permissions"
        }
      }
    },
    "UpdateInfo": {
      "type": "object",
      "required": [
        "version",
        "currentVersion",
        "channel",
        "critical",
        "intermediate",
        "changelog",
        "publishedAt",
        "artifacts"
      ],
      "properties": {
        "version": {
          "$ref": "ferry:components#/schemas/Semver"
        },
        "currentVersion": {
          "$ref": "ferry:components#/schemas/Semver"
        },
        "channel": {
          "$ref": "ferry:components#/schemas/CatalogName"
        },
        "critical": {
          "type": "boolean"
        },
        "intermediate": {
          "type": "boolean"
        },
        "downgrade": {
          "type": "boolean"
        },
        "changelog": {
          "type": "string"
        },
        "publishedAt": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "artifacts": {
          "type": "array",
          "minItems": 1,
          "items": {
            "$ref": "ferry:components#/schemas/Artifact"
          }
        }
      }
    },
    "SignerIdentity": {
      "type": "object",
      "required": [
        "kind",
        "commonName",
        "organization",
        "fingerprint"
      ],
      "properties": {
        "kind": {
          "type": "string",
          "enum": [
            "authenticode",
            "apple"
          ]
        },
        "teamId": {
          "type": "string"
        },
        "commonName": {
          "oneOf": [
            {
              "type": "string"
            },
            {
              "type": "null"
            }
          ]
        },
        "organization": {
          "oneOf": [
            {
              "type": "string"
            },
            {
              "type": "null"
            }
          ]
        },
        "fingerprint": {
          "type": "string",
          "pattern": "^[0-9a-f]{64}$"
        }
      }
    },
    "SignerChange": {
      "type": "object",
      "required": [
        "note",
        "previous"
      ],
      "properties": {
        "note": {
          "type": "string"
        },
        "previous": {
          "oneOf": [
            {
              "$ref": "ferry:components#/schemas/SignerIdentity"
            },
            {
              "type": "null"
            }
          ]
        }
      }
    },
    "UpdaterKeyRole": {
      "type": "string",
      "enum": [
        "current",
        "next",
        "retired"
      ]
    },
    "TauriKeyEntry": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "key",
        "role"
      ],
      "properties": {
        "key": {
          "type": "string",
          "pattern": "^[A-Za-z0-9+/=\\s]{40,400}$"
        },
        "role": {
          "$ref": "ferry:components#/schemas/UpdaterKeyRole"
        }
      }
    },
    "SparkleKeyEntry": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "key",
        "role"
      ],
      "properties": {
        "key": {
          "type": "string",
          "pattern": "^[A-Za-z0-9+/]{43}=$"
        },
        "role": {
          "$ref": "ferry:components#/schemas/UpdaterKeyRole"
        }
      }
    },
    "UpdateKeyDevices": {
      "type": "object",
      "required": [
        "day",
        "devices",
        "keys"
      ],
      "properties": {
        "day": {
          "oneOf": [
            {
              "type": "string",
              "format": "date"
            },
            {
              "type": "null"
            }
          ]
        },
        "devices": {
          "type": "integer",
          "minimum": 0
        },
        "keys": {
          "type": "array",
          "items": {
            "type": "object",
            "required": [
              "updater",
              "key",
              "role",
              "devices"
            ],
            "properties": {
              "updater": {
                "type": "string",
                "enum": [
                  "tauri",
                  "sparkle"
                ]
              },
              "key": {
                "type": "string"
              },
              "role": {
                "$ref": "ferry:components#/schemas/UpdaterKeyRole"
              },
              "devices": {
                "type": "integer",
                "minimum": 0
              }
            }
          }
        }
      }
    },
    "SquirrelMacUpdate": {
      "type": "object",
      "required": [
        "url",
        "name",
        "notes",
        "pub_date"
      ],
      "properties": {
        "url": {
          "type": "string",
          "format": "uri"
        },
        "name": {
          "type": "string"
        },
        "notes": {
          "type": "string"
        },
        "pub_date": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      }
    },
    "VelopackFeed": {
      "type": "object",
      "required": [
        "Assets"
      ],
      "properties": {
        "Assets": {
          "type": "array",
          "items": {
            "type": "object",
            "required": [
              "PackageId",
              "Version",
              "Type",
              "FileName",
              "SHA1",
              "SHA256",
              "Size",
              "NotesMarkdown",
              "NotesHtml"
            ],
            "properties": {
              "PackageId": {
                "type": "string"
              },
              "Version": {
                "type": "string"
              },
              "Type": {
                "type": "string",
                "enum": [
                  "Full",
                  "Delta"
                ]
              },
              "FileName": {
                "type": "string"
              },
              "SHA1": {
                "type": "string",
                "pattern": "^[0-9A-F]{40}$"
              },
              "SHA256": {
                "type": "string",
                "pattern": "^[0-9a-f]{64}$"
              },
              "Size": {
                "type": "integer",
                "format": "int64",
                "minimum": 0
              },
              "NotesMarkdown": {
                "type": "string"
              },
              "NotesHtml": {
                "type": "string"
              }
            }
          }
        }
      }
    },
    "TauriUpdate": {
      "type": "object",
      "required": [
        "version",
        "notes",
        "pub_date",
        "url",
        "signature",
        "critical"
      ],
      "properties": {
        "version": {
          "$ref": "ferry:components#/schemas/Semver"
        },
        "notes": {
          "type": "string"
        },
        "pub_date": {
          "$ref": "ferry:components#/schemas/Timestamp"
        },
        "url": {
          "type": "string",
          "format": "uri"
        },
        "signature": {
          "type": "string",
          "minLength": 1
        },
        "critical": {
          "type": "boolean"
        }
      }
    },
    "TelemetryRow": {
      "type": "object",
      "required": [
        "day",
        "app",
        "version",
        "channel",
        "platform",
        "arch",
        "checks",
        "devices"
      ],
      "properties": {
        "day": {
          "type": "string",
          "format": "date"
        },
        "app": {
          "$ref": "ferry:components#/schemas/Slug"
        },
        "version": {
          "type": "string"
        },
        "channel": {
          "type": "string"
        },
        "platform": {
          "type": "string"
        },
        "arch": {
          "type": "string"
        },
        "checks": {
          "type": "integer",
          "minimum": 1
        },
        "devices": {
          "type": "integer",
          "minimum": 1
        }
      }
    },
    "TelemetryReport": {
      "type": "object",
      "required": [
        "from",
        "to",
        "items"
      ],
      "properties": {
        "from": {
          "type": "string",
          "format": "date"
        },
        "to": {
          "type": "string",
          "format": "date"
        },
        "items": {
          "type": "array",
          "items": {
            "$ref": "ferry:components#/schemas/TelemetryRow"
          }
        }
      }
    },
    "TufMetadataFile": {
      "type": "object",
      "required": [
        "signed",
        "signatures"
      ],
      "properties": {
        "signed": {
          "type": "object",
          "required": [
            "_type"
          ],
          "additionalProperties": true,
          "properties": {
            "_type": {
              "type": "string",
              "enum": [
                "root",
                "targets"
              ]
            }
          }
        },
        "signatures": {
          "type": "array",
          "maxItems": 64,
          "items": {
            "type": "object",
            "required": [
              "keyid",
              "sig"
            ],
            "properties": {
              "keyid": {
                "type": "string",
                "maxLength": 128
              },
              "sig": {
                "type": "string",
                "maxLength": 1024
              }
            }
          }
        }
      }
    },
    "TufStored": {
      "type": "object",
      "required": [
        "role",
        "version"
      ],
      "properties": {
        "role": {
          "type": "string",
          "enum": [
            "root",
            "targets"
          ]
        },
        "version": {
          "type": "integer",
          "minimum": 1
        },
        "targets": {
          "type": "integer",
          "minimum": 0
        }
      }
    },
    "UpdateKeyHold": {
      "type": "object",
      "required": [
        "version",
        "signedBy",
        "bridge",
        "reason"
      ],
      "properties": {
        "version": {
          "type": "string"
        },
        "signedBy": {
          "type": "string"
        },
        "bridge": {
          "oneOf": [
            {
              "type": "string"
            },
            {
              "type": "null"
            }
          ]
        },
        "reason": {
          "type": "string"
        }
      }
    }
  }
}

/** The body schema of each event Ferry POSTs to webhook subscriptions (`#/webhooks`), by its `type`. */
export const webhookEvents: Record<string, unknown> = {
  "version.uploaded": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookVersionEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "version.uploaded"
            ]
          }
        }
      }
    ]
  },
  "version.published": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookVersionEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "version.published"
            ]
          }
        }
      }
    ]
  },
  "version.unpublished": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookVersionEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "version.unpublished"
            ]
          }
        }
      }
    ]
  },
  "version.ramp_step": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookRampStepEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "version.ramp_step"
            ]
          }
        }
      }
    ]
  },
  "version.ramp_holding": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookRampHoldingEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "version.ramp_holding"
            ]
          }
        }
      }
    ]
  },
  "version.paused": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookVersionEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "version.paused"
            ]
          }
        }
      }
    ]
  },
  "version.resumed": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookVersionEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "version.resumed"
            ]
          }
        }
      }
    ]
  },
  "version.pulled": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookVersionEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "version.pulled"
            ]
          }
        }
      }
    ]
  },
  "token.created": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookTokenEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "token.created"
            ]
          }
        }
      }
    ]
  },
  "token.revoked": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookTokenEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "token.revoked"
            ]
          }
        }
      }
    ]
  },
  "rule.created": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookRuleEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "rule.created"
            ]
          }
        }
      }
    ]
  },
  "rule.deleted": {
    "allOf": [
      {
        "$ref": "ferry:components#/schemas/WebhookRuleEvent"
      },
      {
        "type": "object",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "rule.deleted"
            ]
          }
        }
      }
    ]
  },
  "webhook.test": {
    "$ref": "ferry:components#/schemas/WebhookTestEvent"
  }
}

/** Query parameters with a default: always present once validated. */
export interface QueryDefaults {
  listApps: 'limit'
  listVersions: 'limit'
  searchAppVersions: 'limit'
  listChannels: 'limit'
  listPlatforms: 'limit'
  listArchs: 'limit'
  listTeamUsers: 'limit'
  listApiTokens: 'limit'
  listWebhookDeliveries: 'limit'
  listAuditEntries: 'limit'
  checkForUpdate: 'channel'
  explainUpdate: 'channel'
  getLatestBuild: 'channel'
  getMsixAppInstaller: 'hoursBetweenUpdateChecks' | 'showPrompt' | 'updateBlocksActivation' | 'automaticBackgroundTask' | 'forceUpdateFromAnyVersion'
}

/** Every operation of the contract, in spec order. */
export const operations: readonly OperationSpec[] = [
  {
    "operationId": "signup",
    "method": "post",
    "path": "/v1/auth/signup",
    "pointer": "#/paths/~1v1~1auth~1signup/post",
    "permission": "signupKey",
    "invalidates": "none",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/SignupRequest"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Session"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "login",
    "method": "post",
    "path": "/v1/auth/login",
    "pointer": "#/paths/~1v1~1auth~1login/post",
    "permission": "public",
    "invalidates": "none",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/LoginRequest"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Session"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "429": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listApps",
    "method": "get",
    "path": "/v1/apps",
    "pointer": "#/paths/~1v1~1apps/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/AppList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "createApp",
    "method": "post",
    "path": "/v1/apps",
    "pointer": "#/paths/~1v1~1apps/post",
    "permission": "apps.create",
    "resource": {
      "in": "body",
      "name": "slug"
    },
    "invalidates": "none",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/AppCreate"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/App"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listVersions",
    "method": "get",
    "path": "/v1/versions",
    "pointer": "#/paths/~1v1~1versions/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "app",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "platform",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "published",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/VersionList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "updateApp",
    "method": "patch",
    "path": "/v1/apps/{app}",
    "pointer": "#/paths/~1v1~1apps~1{app}/patch",
    "permission": "apps.edit",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/AppUpdate"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/App"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "deleteApp",
    "method": "delete",
    "path": "/v1/apps/{app}",
    "pointer": "#/paths/~1v1~1apps~1{app}/delete",
    "permission": "apps.delete",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "searchAppVersions",
    "method": "get",
    "path": "/v1/apps/{app}/versions",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "platform",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "published",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "critical",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/VersionList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "uploadVersion",
    "method": "post",
    "path": "/v1/apps/{app}/versions",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions/post",
    "permission": "apps.upload",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      }
    ],
    "body": {
      "contentType": "multipart/form-data",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/VersionUpload"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Version"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "updateVersion",
    "method": "patch",
    "path": "/v1/apps/{app}/versions/{version}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions~1{version}/patch",
    "permission": "apps.edit",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/VersionUpdate"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Version"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "deleteVersion",
    "method": "delete",
    "path": "/v1/apps/{app}/versions/{version}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions~1{version}/delete",
    "permission": "apps.delete",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "pauseVersion",
    "method": "post",
    "path": "/v1/apps/{app}/versions/{version}/pause",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions~1{version}~1pause/post",
    "permission": "apps.edit",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/RolloutAction"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Version"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "resumeVersion",
    "method": "post",
    "path": "/v1/apps/{app}/versions/{version}/resume",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions~1{version}~1resume/post",
    "permission": "apps.edit",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Version"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "pullVersion",
    "method": "post",
    "path": "/v1/apps/{app}/versions/{version}/pull",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions~1{version}~1pull/post",
    "permission": "apps.edit",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/RolloutAction"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Version"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getVersionAdoption",
    "method": "get",
    "path": "/v1/apps/{app}/versions/{version}/adoption",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions~1{version}~1adoption/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "from",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "format": "date"
        }
      },
      {
        "name": "to",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "format": "date"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/VersionAdoption"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "deleteArtifact",
    "method": "delete",
    "path": "/v1/apps/{app}/versions/{version}/artifacts/{artifact}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions~1{version}~1artifacts~1{artifact}/delete",
    "permission": "apps.delete",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "artifact",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "downloadArtifact",
    "method": "get",
    "path": "/v1/apps/{app}/versions/{version}/artifacts/{artifact}/download",
    "pointer": "#/paths/~1v1~1apps~1{app}~1versions~1{version}~1artifacts~1{artifact}~1download/get",
    "permission": "apps.download",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "artifact",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "expires",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "format": "int64",
          "minimum": 0
        }
      },
      {
        "name": "signature",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[0-9a-f]{64}$"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      }
    ],
    "responses": {
      "200": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        }
      },
      "206": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        },
        "multipart/byteranges": {
          "type": "string",
          "format": "binary"
        }
      },
      "302": {},
      "304": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listChannels",
    "method": "get",
    "path": "/v1/channels",
    "pointer": "#/paths/~1v1~1channels/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/ChannelList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "createChannel",
    "method": "post",
    "path": "/v1/channels",
    "pointer": "#/paths/~1v1~1channels/post",
    "permission": "channels.create",
    "invalidates": "team",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/ChannelCreate"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Channel"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "updateChannel",
    "method": "patch",
    "path": "/v1/channels/{id}",
    "pointer": "#/paths/~1v1~1channels~1{id}/patch",
    "permission": "channels.edit",
    "resource": {
      "in": "path",
      "name": "id"
    },
    "invalidates": "team",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/ChannelUpdate"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Channel"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "deleteChannel",
    "method": "delete",
    "path": "/v1/channels/{id}",
    "pointer": "#/paths/~1v1~1channels~1{id}/delete",
    "permission": "channels.delete",
    "resource": {
      "in": "path",
      "name": "id"
    },
    "invalidates": "team",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listPlatforms",
    "method": "get",
    "path": "/v1/platforms",
    "pointer": "#/paths/~1v1~1platforms/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/PlatformList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "createPlatform",
    "method": "post",
    "path": "/v1/platforms",
    "pointer": "#/paths/~1v1~1platforms/post",
    "permission": "platforms.create",
    "invalidates": "team",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/PlatformCreate"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Platform"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "updatePlatform",
    "method": "patch",
    "path": "/v1/platforms/{id}",
    "pointer": "#/paths/~1v1~1platforms~1{id}/patch",
    "permission": "platforms.edit",
    "resource": {
      "in": "path",
      "name": "id"
    },
    "invalidates": "team",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/PlatformUpdate"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Platform"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "deletePlatform",
    "method": "delete",
    "path": "/v1/platforms/{id}",
    "pointer": "#/paths/~1v1~1platforms~1{id}/delete",
    "permission": "platforms.delete",
    "resource": {
      "in": "path",
      "name": "id"
    },
    "invalidates": "team",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listArchs",
    "method": "get",
    "path": "/v1/archs",
    "pointer": "#/paths/~1v1~1archs/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/ArchList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "createArch",
    "method": "post",
    "path": "/v1/archs",
    "pointer": "#/paths/~1v1~1archs/post",
    "permission": "archs.create",
    "invalidates": "team",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/ArchCreate"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Arch"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "updateArch",
    "method": "patch",
    "path": "/v1/archs/{id}",
    "pointer": "#/paths/~1v1~1archs~1{id}/patch",
    "permission": "archs.edit",
    "resource": {
      "in": "path",
      "name": "id"
    },
    "invalidates": "team",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/ArchUpdate"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Arch"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "deleteArch",
    "method": "delete",
    "path": "/v1/archs/{id}",
    "pointer": "#/paths/~1v1~1archs~1{id}/delete",
    "permission": "archs.delete",
    "resource": {
      "in": "path",
      "name": "id"
    },
    "invalidates": "team",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listTeamUsers",
    "method": "get",
    "path": "/v1/team/users",
    "pointer": "#/paths/~1v1~1team~1users/get",
    "permission": "admin",
    "parameters": [
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/TeamUserList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "createTeamUser",
    "method": "post",
    "path": "/v1/team/users",
    "pointer": "#/paths/~1v1~1team~1users/post",
    "permission": "admin",
    "invalidates": "none",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/TeamUserCreate"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/TeamUser"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "updateTeamUser",
    "method": "patch",
    "path": "/v1/team/users/{id}",
    "pointer": "#/paths/~1v1~1team~1users~1{id}/patch",
    "permission": "admin",
    "invalidates": "none",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/TeamUserUpdate"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/TeamUser"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "deleteTeamUser",
    "method": "delete",
    "path": "/v1/team/users/{id}",
    "pointer": "#/paths/~1v1~1team~1users~1{id}/delete",
    "permission": "admin",
    "invalidates": "none",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "updateAdminPassword",
    "method": "patch",
    "path": "/v1/team/admin",
    "pointer": "#/paths/~1v1~1team~1admin/patch",
    "permission": "admin",
    "invalidates": "none",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/AdminPasswordUpdate"
      }
    },
    "responses": {
      "204": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "429": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listApiTokens",
    "method": "get",
    "path": "/v1/team/tokens",
    "pointer": "#/paths/~1v1~1team~1tokens/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/ApiTokenList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "createApiToken",
    "method": "post",
    "path": "/v1/team/tokens",
    "pointer": "#/paths/~1v1~1team~1tokens/post",
    "permission": "authenticated",
    "invalidates": "none",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/ApiTokenCreate"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/ApiTokenCreated"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "revokeApiToken",
    "method": "delete",
    "path": "/v1/team/tokens/{id}",
    "pointer": "#/paths/~1v1~1team~1tokens~1{id}/delete",
    "permission": "authenticated",
    "invalidates": "none",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listWebhooks",
    "method": "get",
    "path": "/v1/webhooks",
    "pointer": "#/paths/~1v1~1webhooks/get",
    "permission": "admin",
    "parameters": [],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/WebhookList"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "createWebhook",
    "method": "post",
    "path": "/v1/webhooks",
    "pointer": "#/paths/~1v1~1webhooks/post",
    "permission": "admin",
    "invalidates": "none",
    "parameters": [],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/WebhookCreate"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/WebhookCreated"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getWebhook",
    "method": "get",
    "path": "/v1/webhooks/{id}",
    "pointer": "#/paths/~1v1~1webhooks~1{id}/get",
    "permission": "admin",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Webhook"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "updateWebhook",
    "method": "patch",
    "path": "/v1/webhooks/{id}",
    "pointer": "#/paths/~1v1~1webhooks~1{id}/patch",
    "permission": "admin",
    "invalidates": "none",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/WebhookUpdate"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Webhook"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "deleteWebhook",
    "method": "delete",
    "path": "/v1/webhooks/{id}",
    "pointer": "#/paths/~1v1~1webhooks~1{id}/delete",
    "permission": "admin",
    "invalidates": "none",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listWebhookDeliveries",
    "method": "get",
    "path": "/v1/webhooks/{id}/deliveries",
    "pointer": "#/paths/~1v1~1webhooks~1{id}~1deliveries/get",
    "permission": "admin",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/WebhookDeliveryList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "redeliverWebhook",
    "method": "post",
    "path": "/v1/webhooks/{id}/deliveries/{delivery}/redeliver",
    "pointer": "#/paths/~1v1~1webhooks~1{id}~1deliveries~1{delivery}~1redeliver/post",
    "permission": "admin",
    "invalidates": "none",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "delivery",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "202": {
        "application/json": {
          "$ref": "ferry:components#/schemas/WebhookDelivery"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "testWebhook",
    "method": "post",
    "path": "/v1/webhooks/{id}/test",
    "pointer": "#/paths/~1v1~1webhooks~1{id}~1test/post",
    "permission": "admin",
    "invalidates": "none",
    "parameters": [
      {
        "name": "id",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "202": {
        "application/json": {
          "$ref": "ferry:components#/schemas/WebhookDelivery"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "callMcp",
    "method": "post",
    "path": "/mcp",
    "pointer": "#/paths/~1mcp/post",
    "permission": "public",
    "invalidates": "none",
    "parameters": [
      {
        "name": "Accept",
        "in": "header",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "Mcp-Session-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/JsonRpcMessage"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/JsonRpcMessage"
        }
      },
      "202": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "429": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getHealth",
    "method": "get",
    "path": "/v1/health",
    "pointer": "#/paths/~1v1~1health/get",
    "permission": "public",
    "parameters": [],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Health"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listAuditEntries",
    "method": "get",
    "path": "/v1/audit",
    "pointer": "#/paths/~1v1~1audit/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "app",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "actor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 1,
          "maxLength": 254
        }
      },
      {
        "name": "action",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[a-z][a-zA-Z]*(\\.[a-z][a-zA-Z]*)*\\.?$",
          "maxLength": 64
        }
      },
      {
        "name": "from",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      },
      {
        "name": "to",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Timestamp"
        }
      },
      {
        "name": "limit",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        },
        "default": 20
      },
      {
        "name": "cursor",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/AuditEntryList"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "whoami",
    "method": "get",
    "path": "/v1/whoami",
    "pointer": "#/paths/~1v1~1whoami/get",
    "permission": "authenticated",
    "parameters": [],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/WhoAmI"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "checkForUpdate",
    "method": "get",
    "path": "/v1/apps/{app}/update",
    "pointer": "#/paths/~1v1~1apps~1{app}~1update/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "channel",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "default": "stable"
        },
        "default": "stable"
      },
      {
        "name": "platform",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "format",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/UpdaterFormat"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      },
      {
        "name": "X-Ferry-Cohort",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "X-Ferry-Attributes",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "X-Ferry-Manual",
        "in": "header",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "cohort",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "attributes",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "manual",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "anyOf": [
            {
              "$ref": "ferry:components#/schemas/UpdateInfo"
            },
            {
              "$ref": "ferry:components#/schemas/SquirrelMacUpdate"
            },
            {
              "$ref": "ferry:components#/schemas/TauriUpdate"
            },
            {
              "$ref": "ferry:components#/schemas/VelopackFeed"
            }
          ]
        },
        "application/x-yaml": {
          "type": "string"
        },
        "application/rss+xml": {
          "type": "string"
        },
        "text/plain": {
          "type": "string"
        }
      },
      "204": {},
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "explainUpdate",
    "method": "get",
    "path": "/v1/apps/{app}/update/explain",
    "pointer": "#/paths/~1v1~1apps~1{app}~1update~1explain/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "channel",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "default": "stable"
        },
        "default": "stable"
      },
      {
        "name": "platform",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "format",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/UpdaterFormat"
        }
      },
      {
        "name": "deviceId",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      },
      {
        "name": "cohort",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "attributes",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "manual",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/UpdateExplanation"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "listRules",
    "method": "get",
    "path": "/v1/apps/{app}/rules",
    "pointer": "#/paths/~1v1~1apps~1{app}~1rules/get",
    "permission": "apps.edit",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/RuleList"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "createRule",
    "method": "post",
    "path": "/v1/apps/{app}/rules",
    "pointer": "#/paths/~1v1~1apps~1{app}~1rules/post",
    "permission": "apps.edit",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/RuleCreate"
      }
    },
    "responses": {
      "201": {
        "application/json": {
          "$ref": "ferry:components#/schemas/Rule"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "deleteRule",
    "method": "delete",
    "path": "/v1/apps/{app}/rules/{rule}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1rules~1{rule}/delete",
    "permission": "apps.edit",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "app",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "rule",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      }
    ],
    "responses": {
      "204": {},
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "reportUpdateOutcome",
    "method": "post",
    "path": "/v1/apps/{app}/health-reports",
    "pointer": "#/paths/~1v1~1apps~1{app}~1health-reports/post",
    "permission": "public",
    "invalidates": "none",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/HealthReport"
      }
    },
    "responses": {
      "202": {
        "application/json": {
          "$ref": "ferry:components#/schemas/HealthReportReceipt"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "413": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "429": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getLatestBuild",
    "method": "get",
    "path": "/v1/apps/{app}/latest",
    "pointer": "#/paths/~1v1~1apps~1{app}~1latest/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "packageType",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/PackageType"
        }
      },
      {
        "name": "platform",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "channel",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "default": "stable"
        },
        "default": "stable"
      }
    ],
    "responses": {
      "302": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getSquirrelReleases",
    "method": "get",
    "path": "/v1/apps/{app}/squirrel/{channel}/{arch}/RELEASES",
    "pointer": "#/paths/~1v1~1apps~1{app}~1squirrel~1{channel}~1{arch}~1RELEASES/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "localVersion",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      }
    ],
    "responses": {
      "200": {
        "text/plain": {
          "type": "string"
        }
      },
      "304": {},
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getSquirrelPackage",
    "method": "get",
    "path": "/v1/apps/{app}/squirrel/{channel}/{arch}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1squirrel~1{channel}~1{arch}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[^/]+\\.nupkg$"
        }
      }
    ],
    "responses": {
      "302": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getSquirrelMacUpdate",
    "method": "get",
    "path": "/v1/apps/{app}/squirrel-mac/{channel}/{arch}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1squirrel-mac~1{channel}~1{arch}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "version",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/SquirrelMacUpdate"
        }
      },
      "204": {},
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getElectronUpdaterFeed",
    "method": "get",
    "path": "/v1/apps/{app}/electron-updater/{channel}/{platform}/{arch}/{version}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1electron-updater~1{channel}~1{platform}~1{arch}~1{version}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "platform",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[A-Za-z0-9._-]+\\.yml$"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      },
      {
        "name": "X-Ferry-Cohort",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "X-Ferry-Attributes",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "X-Ferry-Manual",
        "in": "header",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "cohort",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "attributes",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "manual",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "x-user-staging-id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 128
        }
      }
    ],
    "responses": {
      "200": {
        "application/x-yaml": {
          "type": "string"
        }
      },
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getTauriUpdate",
    "method": "get",
    "path": "/v1/apps/{app}/tauri/{channel}/{target}/{arch}/{currentVersion}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1tauri~1{channel}~1{target}~1{arch}~1{currentVersion}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "target",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "enum": [
            "windows",
            "darwin",
            "linux"
          ]
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "enum": [
            "x86_64",
            "aarch64",
            "i686",
            "armv7"
          ]
        }
      },
      {
        "name": "currentVersion",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      },
      {
        "name": "X-Ferry-Cohort",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "X-Ferry-Attributes",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "X-Ferry-Manual",
        "in": "header",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "cohort",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "attributes",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "manual",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/TauriUpdate"
        }
      },
      "204": {},
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getElectronUpdaterFile",
    "method": "get",
    "path": "/v1/apps/{app}/electron-updater/{channel}/{platform}/{arch}/files/{version}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1electron-updater~1{channel}~1{platform}~1{arch}~1files~1{version}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "platform",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[^/]+$"
        }
      }
    ],
    "responses": {
      "200": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        }
      },
      "206": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        },
        "multipart/byteranges": {
          "type": "string",
          "format": "binary"
        }
      },
      "302": {},
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getVelopackFile",
    "method": "get",
    "path": "/v1/apps/{app}/velopack/{channel}/{platform}/{arch}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1velopack~1{channel}~1{platform}~1{arch}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "platform",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^(releases\\.[A-Za-z0-9_.-]+\\.json|[^/]+\\.nupkg)$"
        }
      },
      {
        "name": "localVersion",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "id",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 200
        }
      },
      {
        "name": "stagingId",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 128
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/VelopackFeed"
        }
      },
      "302": {},
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getUpdateKeyDevices",
    "method": "get",
    "path": "/v1/apps/{app}/update-keys",
    "pointer": "#/paths/~1v1~1apps~1{app}~1update-keys/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/UpdateKeyDevices"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getSparkleAppcast",
    "method": "get",
    "path": "/v1/apps/{app}/sparkle/{channel}/{platform}/{arch}/appcast.xml",
    "pointer": "#/paths/~1v1~1apps~1{app}~1sparkle~1{channel}~1{platform}~1{arch}~1appcast.xml/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "platform",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "version",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      },
      {
        "name": "X-Ferry-Cohort",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "X-Ferry-Attributes",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "X-Ferry-Manual",
        "in": "header",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "cohort",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "attributes",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "manual",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      }
    ],
    "responses": {
      "200": {
        "application/rss+xml": {
          "type": "string"
        }
      },
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getElectronUpdaterCohortFeed",
    "method": "get",
    "path": "/v1/apps/{app}/cohorts/{cohort}/electron-updater/{channel}/{platform}/{arch}/{version}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1cohorts~1{cohort}~1electron-updater~1{channel}~1{platform}~1{arch}~1{version}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "cohort",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "platform",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[A-Za-z0-9._-]+\\.yml$"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      },
      {
        "name": "X-Ferry-Attributes",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "X-Ferry-Manual",
        "in": "header",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "attributes",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "manual",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "x-user-staging-id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 128
        }
      }
    ],
    "responses": {
      "200": {
        "application/x-yaml": {
          "type": "string"
        }
      },
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getSparkleCohortAppcast",
    "method": "get",
    "path": "/v1/apps/{app}/cohorts/{cohort}/sparkle/{channel}/{platform}/{arch}/appcast.xml",
    "pointer": "#/paths/~1v1~1apps~1{app}~1cohorts~1{cohort}~1sparkle~1{channel}~1{platform}~1{arch}~1appcast.xml/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "cohort",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/CohortKey"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "platform",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "version",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      },
      {
        "name": "X-Ferry-Attributes",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "X-Ferry-Manual",
        "in": "header",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      },
      {
        "name": "attributes",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "maxLength": 800
        }
      },
      {
        "name": "manual",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean"
        }
      }
    ],
    "responses": {
      "200": {
        "application/rss+xml": {
          "type": "string"
        }
      },
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getRepositoryKey",
    "method": "get",
    "path": "/v1/apps/{app}/repository-key.asc",
    "pointer": "#/paths/~1v1~1apps~1{app}~1repository-key.asc/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      }
    ],
    "responses": {
      "200": {
        "application/pgp-keys": {
          "type": "string"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getAptRelease",
    "method": "get",
    "path": "/v1/apps/{app}/apt/dists/{channel}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1apt~1dists~1{channel}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "enum": [
            "InRelease",
            "Release",
            "Release.gpg"
          ]
        }
      }
    ],
    "responses": {
      "200": {
        "text/plain": {
          "type": "string"
        },
        "application/pgp-signature": {
          "type": "string"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getAptPackages",
    "method": "get",
    "path": "/v1/apps/{app}/apt/dists/{channel}/main/{binaryArch}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1apt~1dists~1{channel}~1main~1{binaryArch}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "binaryArch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^binary-[a-z0-9][a-z0-9-]{0,30}$"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "enum": [
            "Packages",
            "Packages.gz",
            "Packages.xz"
          ]
        }
      }
    ],
    "responses": {
      "200": {
        "text/plain": {
          "type": "string"
        },
        "application/gzip": {
          "type": "string",
          "format": "binary"
        },
        "application/x-xz": {
          "type": "string",
          "format": "binary"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getAptIndexByHash",
    "method": "get",
    "path": "/v1/apps/{app}/apt/dists/{channel}/main/{binaryArch}/by-hash/SHA256/{hash}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1apt~1dists~1{channel}~1main~1{binaryArch}~1by-hash~1SHA256~1{hash}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "binaryArch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^binary-[a-z0-9][a-z0-9-]{0,30}$"
        }
      },
      {
        "name": "hash",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[0-9a-f]{64}$"
        }
      }
    ],
    "responses": {
      "200": {
        "text/plain": {
          "type": "string"
        },
        "application/gzip": {
          "type": "string",
          "format": "binary"
        },
        "application/x-xz": {
          "type": "string",
          "format": "binary"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getAptPackageFile",
    "method": "get",
    "path": "/v1/apps/{app}/apt/pool/{artifact}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1apt~1pool~1{artifact}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "artifact",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[^/]+\\.deb$"
        }
      }
    ],
    "responses": {
      "200": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        }
      },
      "206": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        }
      },
      "302": {},
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "416": {},
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getRpmMetadata",
    "method": "get",
    "path": "/v1/apps/{app}/rpm/{channel}/repodata/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1rpm~1{channel}~1repodata~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "enum": [
            "repomd.xml",
            "repomd.xml.asc",
            "primary.xml.gz",
            "filelists.xml.gz",
            "other.xml.gz"
          ]
        }
      }
    ],
    "responses": {
      "200": {
        "application/xml": {
          "type": "string"
        },
        "application/gzip": {
          "type": "string",
          "format": "binary"
        },
        "application/pgp-signature": {
          "type": "string"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getRpmPackageFile",
    "method": "get",
    "path": "/v1/apps/{app}/rpm/{channel}/packages/{artifact}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1rpm~1{channel}~1packages~1{artifact}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "artifact",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[^/]+\\.rpm$"
        }
      }
    ],
    "responses": {
      "200": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        }
      },
      "206": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        }
      },
      "302": {},
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "416": {},
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getTufMetadata",
    "method": "get",
    "path": "/v1/apps/{app}/tuf/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1tuf~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^(?:(?:[1-9][0-9]{0,9}\\.)?(?:root|snapshot|targets)|timestamp|online-key)\\.json$"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "type": "object"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "publishTufMetadata",
    "method": "post",
    "path": "/v1/apps/{app}/tuf/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1tuf~1{file}/post",
    "permission": "apps.upload",
    "resource": {
      "in": "path",
      "name": "app"
    },
    "invalidates": "none",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "enum": [
            "root.json",
            "targets.json"
          ]
        }
      }
    ],
    "body": {
      "contentType": "application/json",
      "required": true,
      "schema": {
        "$ref": "ferry:components#/schemas/TufMetadataFile"
      }
    },
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/TufStored"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getMsixUpdate",
    "method": "get",
    "path": "/v1/apps/{app}/msix/{channel}/{arch}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1msix~1{channel}~1{arch}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "version",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "X-Ferry-Device-Id",
        "in": "header",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "minLength": 8,
          "maxLength": 128
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "type": "object",
          "required": [
            "url",
            "name",
            "notes",
            "pub_date"
          ],
          "properties": {
            "url": {
              "type": "string",
              "format": "uri"
            },
            "name": {
              "type": "string"
            },
            "notes": {
              "type": "string"
            },
            "pub_date": {
              "$ref": "ferry:components#/schemas/Timestamp"
            }
          }
        }
      },
      "204": {},
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getMsixAppInstaller",
    "method": "get",
    "path": "/v1/apps/{app}/msix/{channel}/{arch}/app.appinstaller",
    "pointer": "#/paths/~1v1~1apps~1{app}~1msix~1{channel}~1{arch}~1app.appinstaller/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "channel",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "hoursBetweenUpdateChecks",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "minimum": 0,
          "maximum": 255,
          "default": 24
        },
        "default": 24
      },
      {
        "name": "showPrompt",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean",
          "default": false
        },
        "default": false
      },
      {
        "name": "updateBlocksActivation",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean",
          "default": false
        },
        "default": false
      },
      {
        "name": "automaticBackgroundTask",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean",
          "default": false
        },
        "default": false
      },
      {
        "name": "forceUpdateFromAnyVersion",
        "in": "query",
        "required": false,
        "type": "boolean",
        "schema": {
          "type": "boolean",
          "default": false
        },
        "default": false
      }
    ],
    "responses": {
      "200": {
        "application/appinstaller": {
          "type": "string"
        }
      },
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "409": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getMsixPackage",
    "method": "get",
    "path": "/v1/apps/{app}/msix/files/{version}/{artifact}/{file}",
    "pointer": "#/paths/~1v1~1apps~1{app}~1msix~1files~1{version}~1{artifact}~1{file}/get",
    "permission": "public",
    "parameters": [
      {
        "name": "app",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "artifact",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Id"
        }
      },
      {
        "name": "file",
        "in": "path",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[^/]+$"
        }
      },
      {
        "name": "expires",
        "in": "query",
        "required": false,
        "type": "integer",
        "schema": {
          "type": "integer",
          "format": "int64",
          "minimum": 0
        }
      },
      {
        "name": "signature",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string",
          "pattern": "^[0-9a-f]{64}$"
        }
      }
    ],
    "responses": {
      "200": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        }
      },
      "206": {
        "application/octet-stream": {
          "type": "string",
          "format": "binary"
        },
        "multipart/byteranges": {
          "type": "string",
          "format": "binary"
        }
      },
      "304": {},
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "403": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  },
  {
    "operationId": "getTelemetry",
    "method": "get",
    "path": "/v1/telemetry",
    "pointer": "#/paths/~1v1~1telemetry/get",
    "permission": "authenticated",
    "parameters": [
      {
        "name": "from",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "format": "date"
        }
      },
      {
        "name": "to",
        "in": "query",
        "required": true,
        "type": "string",
        "schema": {
          "type": "string",
          "format": "date"
        }
      },
      {
        "name": "app",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Slug"
        }
      },
      {
        "name": "version",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "$ref": "ferry:components#/schemas/Semver"
        }
      },
      {
        "name": "channel",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "platform",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      },
      {
        "name": "arch",
        "in": "query",
        "required": false,
        "type": "string",
        "schema": {
          "type": "string"
        }
      }
    ],
    "responses": {
      "200": {
        "application/json": {
          "$ref": "ferry:components#/schemas/TelemetryReport"
        }
      },
      "400": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "401": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "404": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "500": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      },
      "503": {
        "application/problem+json": {
          "$ref": "ferry:components#/schemas/Problem"
        }
      }
    }
  }
]
