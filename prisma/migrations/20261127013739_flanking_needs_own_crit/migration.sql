-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Server" (
    "guildId" TEXT NOT NULL PRIMARY KEY,
    "dispatcherRoleId" TEXT,
    "contestTimeoutMinutes" INTEGER NOT NULL DEFAULT 15,
    "contestAddsOwnSkill" BOOLEAN NOT NULL DEFAULT false,
    "flankingNeedsOwnCrit" BOOLEAN NOT NULL DEFAULT false,
    "defaultSystem" TEXT NOT NULL DEFAULT 'tactalk',
    "playerChallengeRolls" BOOLEAN NOT NULL DEFAULT true,
    "welcomedAt" DATETIME,
    "playedSystems" TEXT,
    "commandsDigest" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Server" ("commandsDigest", "contestAddsOwnSkill", "contestTimeoutMinutes", "createdAt", "defaultSystem", "dispatcherRoleId", "guildId", "playedSystems", "playerChallengeRolls", "updatedAt", "welcomedAt") SELECT "commandsDigest", "contestAddsOwnSkill", "contestTimeoutMinutes", "createdAt", "defaultSystem", "dispatcherRoleId", "guildId", "playedSystems", "playerChallengeRolls", "updatedAt", "welcomedAt" FROM "Server";
DROP TABLE "Server";
ALTER TABLE "new_Server" RENAME TO "Server";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

