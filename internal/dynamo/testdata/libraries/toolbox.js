const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { DynamoDBDocumentClient } = require('@aws-sdk/lib-dynamodb')
const { Table, Entity, item, string, number, PutItemCommand } = require('dynamodb-toolbox')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const name = process.env.TABLE
const table = new Table({name, documentClient: DynamoDBDocumentClient.from(client),
  partitionKey: {name: 'PK', type: 'string'}, sortKey: {name: 'SK', type: 'string'}})
const User = new Entity({name: 'User', table,
  schema: item({userId: string().key(), name: string()}),
  computeKey: ({userId}) => ({PK: `USER#${userId}`, SK: 'PROFILE'})})
const Order = new Entity({name: 'Order', table,
  schema: item({userId: string().key(), placed: string().key(), orderId: string().key(), total: number()}),
  computeKey: ({userId, placed, orderId}) => ({PK: `USER#${userId}`, SK: `ORDER#${placed}#${orderId}`})})
;(async () => {
  await client.send(new CreateTableCommand({TableName: name, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{AttributeName: 'PK', AttributeType: 'S'}, {AttributeName: 'SK', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'PK', KeyType: 'HASH'}, {AttributeName: 'SK', KeyType: 'RANGE'}]}))
  while ((await client.send(new DescribeTableCommand({TableName: name}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  await User.build(PutItemCommand).item({userId: '1', name: 'Ada'}).send()
  const start = Date.UTC(2020, 8, 1)
  for (let i = 0; i < 60; i++) {
    await Order.build(PutItemCommand).item({userId: '1', placed: new Date(start + i * 25 * 3600e3).toISOString(), orderId: 'o' + String(i).padStart(3, '0'), total: i}).send()
  }
})().catch(e => { console.error(e); process.exit(1) })
