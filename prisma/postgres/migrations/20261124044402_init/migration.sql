-- CreateTable
CREATE TABLE "Server" (
    "guildId" TEXT NOT NULL,
    "dispatcherRoleId" TEXT,
    "contestTimeoutMinutes" INTEGER NOT NULL DEFAULT 15,
    "contestAddsOwnSkill" BOOLEAN NOT NULL DEFAULT false,
    "defaultSystem" TEXT NOT NULL DEFAULT 'tactalk',
    "playerChallengeRolls" BOOLEAN NOT NULL DEFAULT true,
    "welcomedAt" TIMESTAMP(3),
    "playedSystems" TEXT,
    "commandsDigest" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Server_pkey" PRIMARY KEY ("guildId")
);

-- CreateTable
CREATE TABLE "Operator" (
    "id" SERIAL NOT NULL,
    "guildId" TEXT NOT NULL,
    "ownerId" TEXT,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "system" TEXT NOT NULL DEFAULT 'tactalk',
    "active" BOOLEAN NOT NULL DEFAULT false,
    "notes" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Operator_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Skill" (
    "id" SERIAL NOT NULL,
    "operatorId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "level" INTEGER NOT NULL,

    CONSTRAINT "Skill_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Archetype" (
    "id" SERIAL NOT NULL,
    "operatorId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "modifier" INTEGER NOT NULL,

    CONSTRAINT "Archetype_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Attribute" (
    "id" SERIAL NOT NULL,
    "operatorId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "value" INTEGER NOT NULL,

    CONSTRAINT "Attribute_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Condition" (
    "id" SERIAL NOT NULL,
    "operatorId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "modifier" INTEGER NOT NULL,
    "skillKeys" TEXT,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "Condition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Roll" (
    "id" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "system" TEXT NOT NULL DEFAULT 'tactalk',
    "inputs" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "dice" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "total" INTEGER,
    "challengeLevel" INTEGER,
    "success" BOOLEAN,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Roll_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Contest" (
    "id" SERIAL NOT NULL,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "messageId" TEXT,
    "challengerId" TEXT NOT NULL,
    "opponentId" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Contest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutcomeTable" (
    "id" SERIAL NOT NULL,
    "guildId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "die" TEXT NOT NULL DEFAULT 'd100',
    "asks" TEXT NOT NULL DEFAULT '',
    "skill" TEXT,
    "rows" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OutcomeTable_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RollRequest" (
    "id" SERIAL NOT NULL,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "messageId" TEXT,
    "dispatcherId" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RollRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InitiativeTracker" (
    "id" SERIAL NOT NULL,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "messageId" TEXT,
    "system" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InitiativeTracker_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Operator_guildId_ownerId_idx" ON "Operator"("guildId", "ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "Operator_guildId_ownerId_nameKey_key" ON "Operator"("guildId", "ownerId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "Skill_operatorId_nameKey_key" ON "Skill"("operatorId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "Archetype_operatorId_nameKey_key" ON "Archetype"("operatorId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "Attribute_operatorId_nameKey_key" ON "Attribute"("operatorId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "Condition_operatorId_nameKey_key" ON "Condition"("operatorId", "nameKey");

-- CreateIndex
CREATE INDEX "Roll_guildId_createdAt_idx" ON "Roll"("guildId", "createdAt");

-- CreateIndex
CREATE INDEX "Roll_createdAt_idx" ON "Roll"("createdAt");

-- CreateIndex
CREATE INDEX "Contest_phase_expiresAt_idx" ON "Contest"("phase", "expiresAt");

-- CreateIndex
CREATE INDEX "Contest_guildId_challengerId_idx" ON "Contest"("guildId", "challengerId");

-- CreateIndex
CREATE INDEX "Contest_guildId_opponentId_idx" ON "Contest"("guildId", "opponentId");

-- CreateIndex
CREATE UNIQUE INDEX "OutcomeTable_guildId_nameKey_key" ON "OutcomeTable"("guildId", "nameKey");

-- CreateIndex
CREATE INDEX "RollRequest_guildId_playerId_idx" ON "RollRequest"("guildId", "playerId");

-- CreateIndex
CREATE INDEX "InitiativeTracker_guildId_channelId_idx" ON "InitiativeTracker"("guildId", "channelId");

-- AddForeignKey
ALTER TABLE "Skill" ADD CONSTRAINT "Skill_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Archetype" ADD CONSTRAINT "Archetype_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attribute" ADD CONSTRAINT "Attribute_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Condition" ADD CONSTRAINT "Condition_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

